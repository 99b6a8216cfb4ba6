//! Errors reported to users. Every message is one line that names the problem; errors that come from
//! elsewhere (a file, the store, a script) keep their source.

use std::sync::Arc;
use thiserror::Error;

/// Everything that can go wrong when a user asks nimlab a question.
#[derive(Debug, Error, Clone)]
pub enum Error {
    /// The game name or its parameters are not valid.
    #[error("{}", one_line(.0))]
    BadGame(String),
    /// The position is not a position of the game.
    #[error("{}", one_line(.0))]
    BadPosition(String),
    /// The request is outside what the command supports.
    #[error("{}", one_line(.0))]
    Unsupported(String),
    /// The request's options do not fit together, or one does not apply: the text names the options
    /// as typed pieces, and each front end spells them its own way ([`crate::arg`]).
    #[error("{}", one_line(&.0.to_string()))]
    Refused(crate::arg::Refusal),
    /// The search would be too large to finish; the message names the estimate and how to lift the limit.
    #[error("{}", one_line(.0))]
    TooLarge(String),
    /// As [`Error::TooLarge`], with a text that names options as typed pieces ([`crate::arg`]).
    #[error("{}", one_line(&.0.to_string()))]
    TooLargeRefused(crate::arg::Refusal),
    /// The computation was interrupted before it finished.
    #[error("interrupted before the computation finished; nothing was written")]
    Interrupted,
    /// A scripted game or predicate failed while running (the message names the script, line and
    /// column).
    #[error("{}", one_line(.0))]
    Script(String),
    /// Reading or writing a file failed.
    #[error("{}: {}", one_line(context), one_line(&source.to_string()))]
    Io {
        context: String,
        #[source]
        source: Arc<std::io::Error>,
    },
    /// The store of solved tables failed.
    #[error("store: {}: {}", one_line(context), one_line(&source.to_string()))]
    Store {
        context: String,
        #[source]
        source: Arc<dyn std::error::Error + Send + Sync>,
    },
}

impl Error {
    /// A refusal about the request's options ([`crate::arg::Refusal`]).
    pub fn refused(r: crate::arg::Refusal) -> Error {
        Error::Refused(r)
    }
    /// A search or table too large to run ([`Error::TooLarge`]), its text naming options as typed
    /// pieces.
    pub fn too_large(r: crate::arg::Refusal) -> Error {
        Error::TooLargeRefused(r)
    }
    /// True for the errors of work beyond a limit ([`Error::TooLarge`], [`Error::TooLargeRefused`]).
    pub fn is_too_large(&self) -> bool {
        matches!(self, Error::TooLarge(_) | Error::TooLargeRefused(_))
    }
    /// The message, options spelled by `spelling` (the command line's by `Display`).
    pub fn render(&self, spelling: &dyn crate::arg::Spelling) -> String {
        match self {
            Error::Refused(r) | Error::TooLargeRefused(r) => {
                one_line(&r.render(spelling)).into_owned()
            }
            e => e.to_string(),
        }
    }
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

/// The text with its line breaks and other control characters written as escapes (`\n`), so that a
/// message quoting the user's input stays on one line.
pub fn one_line(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return text.into();
    }
    text.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect::<String>()
        .into()
}

pub type Result<T> = std::result::Result<T, Error>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_stay_on_one_line() {
        let e = Error::BadPosition("cannot read position ',\n\r\t'".into());
        assert_eq!(e.to_string(), "cannot read position ',\\n\\r\\t'");
        let e = Error::io("reading a\nb", std::io::Error::other("x\ny"));
        assert_eq!(e.to_string(), "reading a\\nb: x\\ny");
        assert_eq!(one_line("plain text, é"), "plain text, é");
    }

    #[test]
    fn a_typed_refusal_of_too_much_work_is_too_large() {
        use crate::arg::{Arg, Mention, Refusal, Spelling};
        struct Words;
        impl Spelling for Words {
            fn spell(&self, arg: Arg, _: &Mention) -> String {
                format!("the {} option", arg.name())
            }
        }
        let e = Error::too_large(Refusal::new("too many; pass ").value(Arg::Limit, "3e9"));
        assert!(e.is_too_large());
        assert!(Error::TooLarge("x".into()).is_too_large());
        assert!(!Error::refused(Refusal::new("x")).is_too_large());
        assert_eq!(e.to_string(), "too many; pass --limit 3e9");
        assert_eq!(e.render(&Words), "too many; pass the limit option");
    }
}
