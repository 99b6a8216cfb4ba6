//! `nimlab store list|export|rm`: the solved tables kept in the store (see `nimlab_tables::store`).

use clap::{Args, Subcommand, ValueEnum};
use nimlab_core::Error;
use nimlab_tables::checkpoint;
use nimlab_tables::plan::{self, Plan};
use nimlab_tables::sink;
use nimlab_tables::store::{self, Entry, Store};
use serde_json::json;
use std::path::PathBuf;

/// Where the store is, for `table` and `store`.
#[derive(Args, Debug, Clone)]
pub struct StoreArgs {
    /// The store's SQLite file (default: $NIMLAB_DB, else nimlab/tables.sqlite3 in the user's data directory).
    #[arg(long, value_name = "PATH", global = true)]
    pub db: Option<PathBuf>,
    /// Neither read nor write the store.
    #[arg(long, global = true)]
    pub no_store: bool,
}

impl StoreArgs {
    /// The store's file for look-ups, or `None` when it is turned off (`--no-store`,
    /// `NIMLAB_DB=off`).
    pub fn path(&self) -> Option<PathBuf> {
        if self.no_store {
            None
        } else {
            store::default_path(self.db.as_deref())
        }
    }

    /// The store, or `None` when it is turned off (`--no-store`, `NIMLAB_DB=off`) or cannot be opened
    /// (then a warning goes to stderr and the command goes on without it).
    pub fn open(&self) -> Result<Option<Store>, Error> {
        if self.no_store {
            return Ok(None);
        }
        let Some(path) = store::default_path(self.db.as_deref()) else {
            return Ok(None);
        };
        match Store::open(&path) {
            Ok(s) => Ok(Some(s)),
            Err(e) => {
                eprintln!("nimlab: the store {} cannot be used: {e}", path.display());
                Ok(None)
            }
        }
    }

    /// The store for a command (`what`) whose job is to read or write it: `--no-store` is refused.
    pub(crate) fn require(&self, what: &str) -> Result<Store, Error> {
        if self.no_store {
            return Err(Error::Unsupported(format!(
                "{what} works on the store, which --no-store turns off: leave out --no-store (and pass --db PATH for another store)"
            )));
        }
        let path = store::default_path(self.db.as_deref()).ok_or_else(|| {
            Error::Unsupported("the store is turned off (NIMLAB_DB=off); pass --db PATH".into())
        })?;
        Store::open(&path).map_err(|e| Error::Unsupported(format!("store {}: {e}", path.display())))
    }
}

#[derive(Args, Debug)]
pub struct StoreCmd {
    #[command(subcommand)]
    action: Action,
    #[command(flatten)]
    store: StoreArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum ExportFormat {
    Csv,
    Jsonl,
}

#[derive(Subcommand, Debug)]
enum Action {
    /// The stored tables: id, game, box, play, kind, counts, time, engine.
    List {
        /// Print one JSON array on stdout.
        #[arg(long)]
        json: bool,
    },
    /// Writes a stored table: its canonical P-positions, or every position with its Grundy value;
    /// `proved:ID` writes a proved characterization's file (families TOML or Walnut automaton).
    Export {
        id: String,
        #[arg(long, value_enum, default_value_t = ExportFormat::Csv)]
        format: ExportFormat,
        /// Write to this file instead of stdout.
        #[arg(long, short)]
        output: Option<PathBuf>,
    },
    /// Removes a stored table (`ID`) or a proved characterization (`proved:ID`).
    #[command(alias = "remove")]
    Rm { id: String },
    /// Removes the tables a stored table of a larger box (or a newer one of the same box) holds: the
    /// larger table answers for every box inside it.
    Gc {
        /// List what would be removed, and remove nothing.
        #[arg(long)]
        dry_run: bool,
    },
}

/// A stored item: a table (`7`) or a proved characterization (`proved:7`).
enum Item {
    Table(i64),
    Proved(i64),
    Sequence(i64),
}

fn item(id: &str) -> Result<Item, Error> {
    let bad = || {
        Error::Unsupported(format!(
            "{id}: an id is a table's number (e.g. 7), a characterization's, proved:7, or a sequence's, sequence:7"
        ))
    };
    if let Some(n) = id.strip_prefix("proved:") {
        return n.parse().map(Item::Proved).map_err(|_| bad());
    }
    if let Some(n) = id.strip_prefix("sequence:") {
        return n.parse().map(Item::Sequence).map_err(|_| bad());
    }
    id.parse().map(Item::Table).map_err(|_| bad())
}

fn sequence_json(e: &nimlab_tables::sequences::SequenceEntry) -> serde_json::Value {
    json!({
        "id": format!("sequence:{}", e.id), "kind": "sequence", "game": e.game, "name": e.name,
        "n": e.n, "requested": e.requested, "complete": e.complete, "method": e.method,
        "seconds": e.seconds, "updated": e.updated,
    })
}

fn characterization_json(c: &store::Characterization) -> serde_json::Value {
    json!({
        "id": format!("proved:{}", c.id), "kind": "characterization", "game": c.game,
        "play": c.play, "format": c.format, "prover": c.prover, "hash": c.hash,
        "created": c.created, "complete": true,
    })
}

fn db_err(e: store::DbError) -> Error {
    Error::store("reading the store", e)
}

/// The bound of a stored table in words.
fn bound_words(e: &Entry) -> String {
    match e.key.lengths.as_str() {
        "chips" => format!("at most {} chips in all", e.key.hi),
        "spread" => format!("max - min at most {}", e.key.hi),
        l => format!("entries {}..={}, lengths {l}", e.key.lo, e.key.hi),
    }
}

fn entry_json(e: &Entry) -> serde_json::Value {
    json!({
        "id": e.id, "game": e.key.game, "lo": e.key.lo, "hi": e.key.hi,
        "lengths": e.key.lengths.split(',').filter_map(|l| l.parse::<u64>().ok()).collect::<Vec<_>>(),
        "bound": match e.key.lengths.as_str() { "chips" => "max_sum", "spread" => "max_spread", _ => "box" },
        "play": e.key.play, "kind": e.key.kind, "engine": e.engine, "complete": e.complete,
        "count": e.count, "canonical_count": e.canonical_count,
        "details": serde_json::from_str::<serde_json::Value>(&e.details).unwrap_or(json!(null)),
        "positions_in_box": e.positions_in_box, "seconds": e.seconds, "created": e.created,
    })
}

/// A field of a checkpoint's key text (`game=...;lo=...`).
fn key_fields(key: &str) -> impl Fn(&str) -> String + '_ {
    move |name: &str| {
        key.split(';')
            .find_map(|kv| kv.strip_prefix(name).and_then(|v| v.strip_prefix('=')))
            .unwrap_or("?")
            .to_string()
    }
}

/// An unfinished table (a checkpoint) in `store list --json`: `id` null, `complete` false.
fn unfinished_json(
    p: &std::path::Path,
    h: &std::io::Result<checkpoint::Header>,
) -> serde_json::Value {
    match h {
        Ok(h) => {
            let k = key_fields(&h.key);
            json!({
                "id": null, "game": k("game"), "lo": k("lo").parse::<u64>().ok(), "hi": k("hi").parse::<u64>().ok(),
                "lengths": k("lengths").split(',').filter_map(|l| l.parse::<u64>().ok()).collect::<Vec<_>>(),
                "play": k("play"), "kind": k("kind"), "engine": h.engine, "complete": false,
                "checkpoint": p.display().to_string(), "done": h.progress.done, "total": h.progress.total,
                "percent": h.percent(), "stage": h.progress.stage, "seconds": h.seconds, "command": h.command,
            })
        }
        Err(e) => json!({
            "id": null, "complete": false, "checkpoint": p.display().to_string(), "error": e.to_string(),
        }),
    }
}

pub fn run(c: &StoreCmd) -> Result<(), Error> {
    let mut s = c.store.require("`nimlab store`")?;
    match &c.action {
        Action::List { json } => {
            let all = s.list().map_err(db_err)?;
            let chars = s.characterizations().map_err(db_err)?;
            let seqs = s.sequences().map_err(db_err)?;
            let unfinished = checkpoint::list(s.path());
            if *json {
                let mut v: Vec<_> = all.iter().map(entry_json).collect();
                v.extend(unfinished.iter().map(|(p, h)| unfinished_json(p, h)));
                v.extend(chars.iter().map(characterization_json));
                v.extend(seqs.iter().map(sequence_json));
                println!("{}", serde_json::to_string(&v).unwrap());
            } else {
                println!("store: {}", s.path().display());
                if all.is_empty() && unfinished.is_empty() {
                    println!("no tables stored");
                } else if all.is_empty() {
                    println!("no complete tables stored");
                }
                for (p, h) in &unfinished {
                    match h {
                        Ok(h) => {
                            let k = key_fields(&h.key);
                            println!(
                                "   -  {}  entries {}..={}, lengths {}: {} play, {}, unfinished: {:.1}% done ({}), checkpoint {}; continue with `{}`",
                                k("game"),
                                k("lo"),
                                k("hi"),
                                k("lengths"),
                                k("play"),
                                if k("kind") == "grundy" { "Grundy values" } else { "P-set" },
                                h.percent(),
                                h.progress.stage,
                                p.display(),
                                h.command
                            )
                        }
                        Err(e) => println!(
                            "   -  unreadable checkpoint {} ({e}); remove the file, or rerun its table with --restart",
                            p.display()
                        ),
                    }
                }
                for e in &all {
                    let what = if e.key.kind == "grundy" {
                        format!("Grundy values, {}", nimlab_core::plural(e.count, "zero"))
                    } else {
                        format!(
                            "{} play, {} P-positions ({} up to symmetry)",
                            e.key.play, e.count, e.canonical_count
                        )
                    };
                    println!(
                        "{:>4}  {}  {}: {}; {}, {:.3} s, {}{}, {}",
                        e.id,
                        e.key.game,
                        bound_words(e),
                        what,
                        nimlab_core::plural(e.positions_in_box, "position"),
                        e.seconds,
                        e.engine,
                        if e.complete { "" } else { " (incomplete)" },
                        e.created
                    );
                }
                for c in &chars {
                    println!(
                        "proved:{}  {}: {} play, a proved characterization of the P-set ({}, proved by {} for every stack size), hash {}, {}",
                        c.id, c.game, c.play, c.format, c.prover, c.hash, c.created
                    );
                }
                for e in &seqs {
                    println!(
                        "sequence:{}  {}: Grundy values of single heaps 0..={} ({}), by the {} method, {:.3} s, {}",
                        e.id,
                        e.game,
                        e.n,
                        if e.complete {
                            "complete".to_string()
                        } else {
                            format!("stopped before {}: continue with `nimlab sequence '{}' --max {} --resume`", e.requested, e.game, e.requested)
                        },
                        e.method,
                        e.seconds,
                        e.updated
                    );
                }
            }
        }
        Action::Export { id, .. } if matches!(item(id)?, Item::Proved(_)) => {
            let Item::Proved(n) = item(id)? else {
                unreachable!("matched above")
            };
            let Action::Export { output, .. } = &c.action else {
                unreachable!("matched above")
            };
            let ch = s.characterization(n).map_err(db_err)?.ok_or_else(|| {
                Error::Unsupported(format!("no characterization {id} in the store"))
            })?;
            match output {
                Some(path) => {
                    std::fs::write(path, &ch.text)
                        .map_err(|e| Error::io(format!("writing {}", path.display()), e))?;
                    eprintln!(
                        "nimlab: wrote characterization {id} ({}) to {}",
                        ch.format,
                        path.display()
                    );
                }
                None => print!("{}", ch.text),
            }
        }
        Action::Export { id, .. } if matches!(item(id)?, Item::Sequence(_)) => {
            return Err(Error::Unsupported(format!(
                "{id} is a sequence: `nimlab sequence GAME --max N --values` (or --json) writes its values, from the store"
            )));
        }
        Action::Export { id, format, output } => {
            let Item::Table(id) = item(id)? else {
                unreachable!("characterizations and sequences are handled above")
            };
            let id = &id;
            let e = s
                .get(*id)
                .map_err(db_err)?
                .filter(|e| e.complete)
                .ok_or_else(|| {
                    Error::Unsupported(format!("no complete table {id} in the store"))
                })?;
            let game = nimlab_games::parse_game(&e.key.game)?;
            let plan = Plan::of_entry(game.as_ref(), &e)?;
            let answer = plan::load(&s, &plan, &e)?;
            let format = match format {
                ExportFormat::Csv => sink::SinkFormat::Csv,
                ExportFormat::Jsonl => sink::SinkFormat::Jsonl,
            };
            let opt = sink::Options::default();
            let written = crate::output::write_out(output.as_deref(), |out| {
                sink::write(out, game.as_ref(), &plan, &answer, format, opt)
            })?;
            if let (Some(rows), Some(path)) = (written, output) {
                eprintln!(
                    "nimlab: wrote {} of table {id} to {}",
                    nimlab_core::plural(rows, "row"),
                    path.display()
                );
            }
        }
        Action::Rm { id } if matches!(item(id)?, Item::Proved(_)) => {
            let Item::Proved(n) = item(id)? else {
                unreachable!("matched above")
            };
            if s.remove_characterization(n).map_err(db_err)? {
                println!("removed characterization {id}");
            } else {
                return Err(Error::Unsupported(format!(
                    "no characterization {id} in the store"
                )));
            }
        }
        Action::Rm { id } if matches!(item(id)?, Item::Sequence(_)) => {
            let Item::Sequence(n) = item(id)? else {
                unreachable!("matched above")
            };
            let seqs = s.sequences().map_err(db_err)?;
            let Some(e) = seqs.iter().find(|e| e.id == n) else {
                return Err(Error::Unsupported(format!("no sequence {id} in the store")));
            };
            s.remove_sequence(&e.game).map_err(db_err)?;
            println!("removed sequence {id} ({}, g(0..={}))", e.game, e.n);
        }
        Action::Gc { dry_run } => {
            let covered = s.covered().map_err(db_err)?;
            for (e, by) in &covered {
                if !*dry_run {
                    s.remove(e.id).map_err(db_err)?;
                }
                println!(
                    "{} table {} ({} {}, {}, {} play): held by table {by}",
                    if *dry_run { "would remove" } else { "removed" },
                    e.id,
                    e.key.game,
                    e.key.kind,
                    bound_words(e),
                    e.key.play
                );
            }
            if covered.is_empty() {
                println!("no table is held by another");
            }
        }
        Action::Rm { id } => {
            let Item::Table(id) = item(id)? else {
                unreachable!("characterizations and sequences are handled above")
            };
            let id = &id;
            if s.remove(*id).map_err(db_err)? {
                println!("removed table {id}");
            } else {
                return Err(Error::Unsupported(format!("no table {id} in the store")));
            }
        }
    }
    Ok(())
}
