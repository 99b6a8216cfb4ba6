//! Errors reported to users. Every message is one line that names the problem; errors that come from
//! elsewhere (a file, the store, a script) keep their source.

use std::sync::Arc;
use thiserror::Error;

/// Everything that can go wrong when a user asks nimlab a question.
#[derive(Debug, Error, Clone)]
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
    /// A scripted game or predicate failed while running (the message names the script, line and
    /// column).
    #[error("{0}")]
    Script(String),
    /// Reading or writing a file failed.
    #[error("{context}: {source}")]
    Io {
        context: String,
        #[source]
        source: Arc<std::io::Error>,
    },
    /// The store of solved tables failed.
    #[error("store: {context}: {source}")]
    Store {
        context: String,
        #[source]
        source: Arc<dyn std::error::Error + Send + Sync>,
    },
}

impl Error {
    /// An I/O error with what was being done.
    pub fn io(context: impl Into<String>, source: std::io::Error) -> Error {
        Error::Io {
            context: context.into(),
            source: Arc::new(source),
        }
    }
    /// A store error with what was being done.
    pub fn store(
        context: impl Into<String>,
        source: impl std::error::Error + Send + Sync + 'static,
    ) -> Error {
        Error::Store {
            context: context.into(),
            source: Arc::new(source),
        }
    }
}

pub type Result<T> = std::result::Result<T, Error>;
