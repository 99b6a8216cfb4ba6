//! Errors reported to users. Every message is one line that names the problem.

use thiserror::Error;

/// Everything that can go wrong when a user asks nimlab a question.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum Error {
    /// The game name or its parameters are not valid.
    #[error("{0}")]
    BadGame(String),
    /// The position is not a position of the game.
    #[error("{0}")]
    BadPosition(String),
    /// The request is outside what the command supports.
    #[error("{0}")]
    Unsupported(String),
    /// The search would be too large to finish; the message names the estimate and how to lift the limit.
    #[error("{0}")]
    TooLarge(String),
    /// The computation was interrupted before it finished.
    #[error("interrupted before the computation finished; nothing was written")]
    Interrupted,
}

pub type Result<T> = std::result::Result<T, Error>;
