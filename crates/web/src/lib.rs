//! # nimlab-web
//!
//! Playing nimlab's games against a perfect opponent.
//!
//! What the terminal and the web page share (the value of a position, the computer's move, legal
//! moves, random starts) is `nimlab_analysis::play`, on top of the analysis library every front end
//! uses; this crate only translates HTTP requests into those calls and answers into JSON.
//!
//! * [`api`]: the HTTP server behind `nimlab serve`: the page (HTML, JavaScript and CSS embedded in the
//!   binary) and the JSON API it uses, in one module per job (the server, the drawing geometry, the
//!   endpoints). Answers are the analysis library's JSON objects (`nimlab_analysis::json`), the same
//!   as the command line's `--json` and Python's. Every request's work is bounded by the engine's limits, by a
//!   request-time limit and by caps on concurrent computations (quick answers and research work in
//!   separate pools, [`Capacity`]); bad input gets HTTP 400 and a JSON
//!   error, and no input makes the server panic.

pub mod api;

pub use api::{router, router_with, router_with_capacity, run, serve, serve_with, Capacity};
pub use nimlab_analysis::StoreHandle;
