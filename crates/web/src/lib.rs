//! # nimlab-web
//!
//! Playing nimlab's games against a perfect opponent.
//!
//! * [`engine`]: what the terminal (`nimlab play`) and the web page share — the value of a position,
//!   the options with their values, the computer's move, the legality of a move, the theory's
//!   explanation and random starting positions, each with bounded work ([`engine::Limits`]);
//! * [`api`]: the HTTP server behind `nimlab serve`: the page (HTML, JavaScript and CSS embedded in the
//!   binary) and the JSON API it uses. Every request's work is bounded by the engine's limits, by a
//!   request-time limit and by a cap on concurrent computations; bad input gets HTTP 400 and a JSON
//!   error, and no input makes the server panic.

pub mod api;
pub mod engine;

pub use api::{router, run, serve};
