//! How an answer was found, as a typed value with one wording for people ([`std::fmt::Display`]) and
//! one JSON form ([`Method::id`], a short string such as `cn-7-4`, `store:13`, `engine`,
//! `grundy-table:[0..9]^7` or `search`). Front ends never compare method strings: they match on
//! [`Method`].

use std::fmt;

/// The method that decided (part of) an answer.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Method {
    /// A proven result of the registry ([`nimlab_theory`]), by id.
    Theorem(&'static str),
    /// A solved table of the store, by its id.
    Store(i64),
    /// The tables engine's P-set of the box below the position.
    Engine,
    /// A Grundy table of the box `[0..hi]^len` computed by the tables engine.
    GrundyTable { hi: u64, len: usize },
    /// A Grundy table of SCN's circles of at most `len` piles of `1..=hi` tokens, computed by the
    /// tables engine.
    CircleGrundyTable { hi: u64, len: usize },
    /// A proved characterization of the P-set kept in the store, by its id (`format`: `families` or
    /// `automaton`; `prover`: `smt` or `automata`).
    Characterization {
        id: i64,
        format: &'static str,
        prover: String,
    },
    /// A one-heap Grundy sequence g(0..=n) kept in the store (`nimlab sequence`), by its id: the
    /// XOR of the heaps' stored values.
    StoredSequence { id: i64, n: u64 },
    /// Exhaustive search (asking the chain at every position it visits).
    Search,
    /// Several methods, one per part (e.g. the options of a position decided by two results).
    Several(Vec<Method>),
    /// A sum in normal play: the XOR of its components' Grundy values.
    Xor,
    /// A misère sum of Nim heaps: Bouton's misère rule on all the heaps at once.
    BoutonMisere,
    /// A sum searched as a whole (misère play).
    SumSearch,
}

impl Method {
    /// The theorem with this id, as a method (`None` for an unknown id).
    pub fn theorem(id: &str) -> Option<Method> {
        nimlab_theory::by_id(id).map(|t| Method::Theorem(t.id()))
    }

    /// The JSON form: `cn-7-4`, `store:13`, `engine`, `grundy-table:[0..9]^7`, `search`, several
    /// joined by `+`.
    pub fn id(&self) -> String {
        match self {
            Method::Theorem(id) => (*id).to_string(),
            Method::Store(id) => format!("store:{id}"),
            Method::Characterization { id, .. } => format!("proved:{id}"),
            Method::StoredSequence { id, n } => format!("sequence:{id}:0..={n}"),
            Method::Engine => "engine".into(),
            Method::GrundyTable { hi, len } => format!("grundy-table:[0..{hi}]^{len}"),
            Method::CircleGrundyTable { hi, len } => {
                format!("grundy-table:circles<={len}:[1..{hi}]")
            }
            Method::Search => "search".into(),
            Method::Several(v) => v.iter().map(|m| m.id()).collect::<Vec<_>>().join("+"),
            Method::Xor => "xor of the components' Grundy values".into(),
            Method::BoutonMisere => "bouton-misere (every component is Nim)".into(),
            Method::SumSearch => "search on the sum".into(),
        }
    }

    /// The JSON value (the id as a string).
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::Value::String(self.id())
    }

    /// The method of a theorem, when this is one.
    pub fn theorem_id(&self) -> Option<&'static str> {
        match self {
            Method::Theorem(id) => Some(id),
            _ => None,
        }
    }

    /// True for exhaustive search (of a position or of a sum).
    pub fn is_search(&self) -> bool {
        matches!(self, Method::Search | Method::SumSearch)
    }

    /// `a` and `b` as one method (`a` when they are equal; otherwise both, without repeats).
    pub fn and(self, b: Method) -> Method {
        let mut v = match self {
            Method::Several(v) => v,
            m => vec![m],
        };
        for m in match b {
            Method::Several(w) => w,
            m => vec![m],
        } {
            if !v.contains(&m) {
                v.push(m);
            }
        }
        if v.len() == 1 {
            v.pop().expect("one method")
        } else {
            Method::Several(v)
        }
    }
}

impl fmt::Display for Method {
    /// The method in words: "Theorem 2 of ... (cn-7-4)", "a stored table (#13)", "exhaustive search".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Method::Theorem(id) => match nimlab_theory::by_id(id) {
                Some(t) => write!(f, "{} ({id})", t.source()),
                None => write!(f, "{id}"),
            },
            Method::Store(id) => write!(f, "a stored table (#{id})"),
            Method::Characterization { id, format, prover } => write!(
                f,
                "the proved characterization #{id} of the store ({format}, proved by {prover})"
            ),
            Method::StoredSequence { id, n } => write!(
                f,
                "the stored sequence #{id} (g(0..={n}) of single heaps, computed by nimlab sequence; the XOR of the heaps' values)"
            ),
            Method::Engine => write!(
                f,
                "the tables engine (the P-set of the box below the position)"
            ),
            Method::GrundyTable { hi, len } => write!(
                f,
                "a Grundy table of the box [0..{hi}]^{len} by the tables engine"
            ),
            Method::CircleGrundyTable { hi, len } => write!(
                f,
                "a Grundy table of the circles of at most {len} pile{} of {} by the tables engine",
                if *len == 1 { "" } else { "s" },
                if *hi == 1 {
                    "1 token".to_string()
                } else {
                    format!("1 to {hi} tokens")
                }
            ),
            Method::Search => write!(f, "exhaustive search"),
            Method::Several(v) => {
                let words: Vec<String> = v.iter().map(|m| m.to_string()).collect();
                write!(f, "{}", words.join(" and "))
            }
            Method::Xor => write!(f, "the XOR of the components' Grundy values"),
            Method::BoutonMisere => write!(
                f,
                "Bouton's misère rule on all the heaps (every component is Nim)"
            ),
            Method::SumSearch => write!(f, "exhaustive search of the whole sum"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_words() {
        assert_eq!(Method::Store(13).id(), "store:13");
        assert_eq!(Method::Store(13).to_string(), "a stored table (#13)");
        let t = Method::theorem("cn-7-4").unwrap();
        assert_eq!(t.id(), "cn-7-4");
        assert!(t.to_string().ends_with("(cn-7-4)"), "{t}");
        assert_eq!(Method::Search.to_string(), "exhaustive search");
        let c = Method::Characterization {
            id: 7,
            format: "families",
            prover: "smt".into(),
        };
        assert_eq!(c.id(), "proved:7");
        assert_eq!(
            c.to_string(),
            "the proved characterization #7 of the store (families, proved by smt)"
        );
        let both = t.clone().and(Method::Search).and(t.clone());
        assert_eq!(both.id(), "cn-7-4+search");
        assert_eq!(Method::Search.and(Method::Search), Method::Search);
        assert!(Method::theorem("no-such").is_none());
        let s = Method::StoredSequence { id: 2, n: 99_999 };
        assert_eq!(s.id(), "sequence:2:0..=99999");
        assert!(
            s.to_string()
                .starts_with("the stored sequence #2 (g(0..=99999)"),
            "{s}"
        );
    }
}
