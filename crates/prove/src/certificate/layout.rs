//! The layout of `manifest.json`: indented JSON whose keys keep the order they are given in, with
//! some objects on one line (a file entry, a query), so that `check.sh` reads them with `sed`.

use serde_json::Value;

/// A JSON value to print.
pub(super) enum Out {
    /// A value as serde_json prints it (indented, or on one line inside [`Out::Line`]).
    Value(Value),
    /// An object, its keys in this order.
    Obj(Vec<(String, Out)>),
    List(Vec<Out>),
    /// The value on one line.
    Line(Box<Out>),
}

impl Out {
    pub(super) fn value(v: Value) -> Out {
        Out::Value(v)
    }

    /// An object on one line, its keys in this order.
    pub(super) fn line(pairs: Vec<(&str, Out)>) -> Out {
        Out::Line(Box::new(Out::Obj(
            pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect(),
        )))
    }

    /// Prints at indentation `depth` (two spaces a level); the first line is not indented.
    pub(super) fn print(&self, depth: usize, s: &mut String) {
        let pad = |d: usize| "  ".repeat(d);
        match self {
            Out::Value(v) => {
                let text = serde_json::to_string_pretty(v).unwrap_or_default();
                s.push_str(&text.replace('\n', &format!("\n{}", pad(depth))));
            }
            Out::Line(inner) => inner.compact(s),
            Out::Obj(pairs) if pairs.is_empty() => s.push_str("{}"),
            Out::List(items) if items.is_empty() => s.push_str("[]"),
            Out::Obj(pairs) => {
                s.push_str("{\n");
                for (i, (k, v)) in pairs.iter().enumerate() {
                    s.push_str(&pad(depth + 1));
                    s.push_str(&serde_json::to_string(k).unwrap_or_default());
                    s.push_str(": ");
                    v.print(depth + 1, s);
                    s.push_str(if i + 1 < pairs.len() { ",\n" } else { "\n" });
                }
                s.push_str(&pad(depth));
                s.push('}');
            }
            Out::List(items) => {
                s.push_str("[\n");
                for (i, v) in items.iter().enumerate() {
                    s.push_str(&pad(depth + 1));
                    v.print(depth + 1, s);
                    s.push_str(if i + 1 < items.len() { ",\n" } else { "\n" });
                }
                s.push_str(&pad(depth));
                s.push(']');
            }
        }
    }

    /// Prints on one line: `{"a": 1, "b": [2, 3]}`.
    fn compact(&self, s: &mut String) {
        match self {
            Out::Value(v) => s.push_str(&serde_json::to_string(v).unwrap_or_default()),
            Out::Line(inner) => inner.compact(s),
            Out::Obj(pairs) => {
                s.push('{');
                for (i, (k, v)) in pairs.iter().enumerate() {
                    if i > 0 {
                        s.push_str(", ");
                    }
                    s.push_str(&serde_json::to_string(k).unwrap_or_default());
                    s.push_str(": ");
                    v.compact(s);
                }
                s.push('}');
            }
            Out::List(items) => {
                s.push('[');
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        s.push_str(", ");
                    }
                    v.compact(s);
                }
                s.push(']');
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn keys_keep_their_order_and_lines_stay_on_one_line() {
        let out = Out::Obj(vec![
            ("z".into(), Out::value(json!({"b": 1, "a": [1, 2]}))),
            (
                "files".into(),
                Out::List(vec![Out::line(vec![
                    ("file", Out::value(json!("x.smt2"))),
                    (
                        "answers",
                        Out::List(vec![Out::Obj(vec![
                            ("solver".into(), Out::value(json!("z3"))),
                            ("answer".into(), Out::value(json!("unsat"))),
                        ])]),
                    ),
                ])]),
            ),
        ]);
        let mut s = String::new();
        out.print(0, &mut s);
        assert!(s.starts_with("{\n  \"z\": {\n"), "{s}");
        assert!(
            s.contains("\n    {\"file\": \"x.smt2\", \"answers\": [{\"solver\": \"z3\", \"answer\": \"unsat\"}]}\n"),
            "{s}"
        );
        let v: Value = serde_json::from_str(&s).unwrap();
        assert_eq!(v["files"][0]["answers"][0]["answer"], "unsat");
        assert_eq!(v["z"]["a"][1], 2);
    }
}
