//! Typed refusals: a request's options named by what they mean ([`Arg`]), and refusal messages that
//! mention them as typed pieces ([`Refusal`]), so that each front end spells an option its own way
//! (`--misere` on the command line, `misere=True` in Python, the form's field on the web page) and no
//! library writes a front end's syntax into its text.

use std::fmt;

/// An option or argument of a request, by its meaning.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Arg {
    Game,
    Heaps,
    Theorem,
    Families,
    Automaton,
    Conjecture,
    GrundyValue,
    GrundyBits,
    Misere,
    Subset,
    Save,
    Emit,
    Bits,
    CrossCheck,
    Automata,
    Solver,
    Timeout,
    Max,
    MaxSum,
    Out,
    Grundy,
    Remoteness,
    Method,
    Backend,
    Limit,
    Resume,
    Restart,
    Db,
    NoStore,
}

impl Arg {
    /// The option's name in kebab case (`cross-check`), as the command line writes it after `--`.
    pub fn name(self) -> &'static str {
        match self {
            Arg::Game => "game",
            Arg::Heaps => "heaps",
            Arg::Theorem => "theorem",
            Arg::Families => "families",
            Arg::Automaton => "automaton",
            Arg::Conjecture => "conjecture",
            Arg::GrundyValue => "grundy-value",
            Arg::GrundyBits => "grundy-bits",
            Arg::Misere => "misere",
            Arg::Subset => "subset",
            Arg::Save => "save",
            Arg::Emit => "emit",
            Arg::Bits => "bits",
            Arg::CrossCheck => "cross-check",
            Arg::Automata => "automata",
            Arg::Solver => "solver",
            Arg::Timeout => "timeout",
            Arg::Max => "max",
            Arg::MaxSum => "max-sum",
            Arg::Out => "out",
            Arg::Grundy => "grundy",
            Arg::Remoteness => "remoteness",
            Arg::Method => "method",
            Arg::Backend => "backend",
            Arg::Limit => "limit",
            Arg::Resume => "resume",
            Arg::Restart => "restart",
            Arg::Db => "db",
            Arg::NoStore => "no-store",
        }
    }

    /// The value's placeholder in messages (`N` for `--heaps N`), for the options that take one.
    pub fn placeholder(self) -> Option<&'static str> {
        Some(match self {
            Arg::Heaps => "N",
            Arg::Theorem => "ID",
            Arg::Families | Arg::Automaton | Arg::Conjecture => "FILE",
            Arg::GrundyValue => "V",
            Arg::GrundyBits => "B",
            Arg::Emit | Arg::Out => "DIR",
            Arg::Db => "PATH",
            Arg::Limit => "N",
            Arg::Method => "METHOD",
            Arg::Backend => "BACKEND",
            Arg::Bits => "W",
            Arg::Solver => "PATH",
            Arg::Timeout => "SECONDS",
            Arg::Max => "H",
            Arg::MaxSum => "S",
            _ => return None,
        })
    }
}

/// How a refusal mentions an option.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mention {
    /// The option by name (`--heaps`, `heaps=`).
    Name,
    /// The option with its placeholder (`--heaps N`, `heaps=N`), or a switch turned on (`--misere`,
    /// `misere=True`).
    Given,
    /// The option with this value (`--heaps 3`, `heaps=3`).
    Value(String),
}

/// One front end's way of writing options.
pub trait Spelling {
    fn spell(&self, arg: Arg, how: &Mention) -> String;
}

/// The command line's spelling: `--heaps`, `--heaps N`, `--heaps 3`, `--misere`.
pub struct CommandLine;

impl Spelling for CommandLine {
    fn spell(&self, arg: Arg, how: &Mention) -> String {
        let name = arg.name();
        match (how, arg.placeholder()) {
            (Mention::Name, _) | (Mention::Given, None) => format!("--{name}"),
            (Mention::Given, Some(p)) => format!("--{name} {p}"),
            (Mention::Value(v), _) => format!("--{name} {v}"),
        }
    }
}

/// A piece of a refusal: words, or an option.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Piece {
    Text(String),
    Arg(Arg, Mention),
}

/// A refusal whose text names options as typed pieces. Built with [`Refusal::text`] and the option
/// methods; rendered by a front end with [`Refusal::render`] (the command line's spelling by
/// default, in `Display`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Refusal {
    pub pieces: Vec<Piece>,
}

impl Refusal {
    /// A refusal that starts with `text`.
    pub fn new(text: impl Into<String>) -> Refusal {
        Refusal::default().text(text)
    }

    pub fn text(mut self, text: impl Into<String>) -> Refusal {
        self.pieces.push(Piece::Text(text.into()));
        self
    }

    /// The option by name.
    pub fn name(mut self, arg: Arg) -> Refusal {
        self.pieces.push(Piece::Arg(arg, Mention::Name));
        self
    }

    /// The option as given (a switch on, or with its placeholder).
    pub fn given(mut self, arg: Arg) -> Refusal {
        self.pieces.push(Piece::Arg(arg, Mention::Given));
        self
    }

    /// The option with a value.
    pub fn value(mut self, arg: Arg, value: impl fmt::Display) -> Refusal {
        self.pieces
            .push(Piece::Arg(arg, Mention::Value(value.to_string())));
        self
    }

    /// The options this refusal mentions, in order.
    pub fn args(&self) -> Vec<Arg> {
        self.pieces
            .iter()
            .filter_map(|p| match p {
                Piece::Arg(a, _) => Some(*a),
                Piece::Text(_) => None,
            })
            .collect()
    }

    /// The text, each option spelled by `spelling`.
    pub fn render(&self, spelling: &dyn Spelling) -> String {
        self.pieces
            .iter()
            .map(|p| match p {
                Piece::Text(t) => t.clone(),
                Piece::Arg(a, how) => spelling.spell(*a, how),
            })
            .collect()
    }
}

impl From<String> for Refusal {
    fn from(text: String) -> Refusal {
        Refusal::new(text)
    }
}

impl From<&str> for Refusal {
    fn from(text: &str) -> Refusal {
        Refusal::new(text)
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render(&CommandLine))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Keywords;
    impl Spelling for Keywords {
        fn spell(&self, arg: Arg, how: &Mention) -> String {
            let name = arg.name().replace('-', "_");
            match how {
                Mention::Given if arg.placeholder().is_none() => format!("{name}=True"),
                Mention::Value(v) => format!("{name}={v}"),
                _ => format!("{name}="),
            }
        }
    }

    #[test]
    fn each_front_end_spells_the_options() {
        let r = Refusal::new("ID is a result about normal play; drop ")
            .given(Arg::Misere)
            .text(", or give ")
            .given(Arg::Heaps)
            .text(" (")
            .value(Arg::CrossCheck, 1)
            .text(")");
        assert_eq!(
            r.to_string(),
            "ID is a result about normal play; drop --misere, or give --heaps N (--cross-check 1)"
        );
        assert_eq!(
            r.render(&Keywords),
            "ID is a result about normal play; drop misere=True, or give heaps= (cross_check=1)"
        );
        assert_eq!(r.args(), vec![Arg::Misere, Arg::Heaps, Arg::CrossCheck]);
    }
}
