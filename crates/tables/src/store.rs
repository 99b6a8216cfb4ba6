//! The embedded store of solved tables: one SQLite file (rusqlite, SQLite bundled).
//!
//! Where: `--db PATH`, else the environment variable `NIMLAB_DB`, else `nimlab/tables.sqlite3` in the
//! user's data directory. `NIMLAB_DB=off` (or `none`, or empty) turns the store off.
//!
//! A table is one row of `tables` (game, family, parameters, box, play, kind, engine version, counts,
//! timing, `complete`) and its data in `chunks` (at most 16 MiB each): for a P-set, the canonical
//! P-positions, each as its length then its entries (one byte each); for a Grundy table, the value of
//! every position in lexicographic order (two bytes each, little-endian). A table is written in one
//! transaction that sets `complete = 1` last, so a run stopped at any point (Ctrl-C, kill, power loss)
//! leaves nothing marked complete; incomplete rows are cleared when the same table is solved again.

use rusqlite::{params, Connection, OptionalExtension};
use std::path::{Path, PathBuf};

pub use rusqlite::Error as DbError;

/// What identifies a table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Key {
    /// The game id, e.g. `CN(7,4)`.
    pub game: String,
    pub family: String,
    /// The parameters, comma-separated.
    pub params: String,
    pub lo: u64,
    pub hi: u64,
    /// The lengths of the box, comma-separated.
    pub lengths: String,
    /// `normal` or `misere`.
    pub play: String,
    /// `pset` or `grundy`.
    pub kind: String,
}

/// A stored table (without its data).
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub id: i64,
    pub key: Key,
    pub engine: String,
    pub complete: bool,
    pub count: u64,
    pub canonical_count: u64,
    /// JSON text: the counts per length (P-sets) or the histogram of values (Grundy tables).
    pub details: String,
    pub positions_in_box: u64,
    pub seconds: f64,
    pub created: String,
}

pub struct Store {
    conn: Connection,
    path: PathBuf,
}

const CHUNK: usize = 16 << 20;

/// The store's file: `explicit`, else `NIMLAB_DB`, else the user's data directory. `None` when the
/// store is turned off (`NIMLAB_DB=off`) or no data directory is known.
pub fn default_path(explicit: Option<&Path>) -> Option<PathBuf> {
    if let Some(p) = explicit {
        return Some(p.to_path_buf());
    }
    match std::env::var_os("NIMLAB_DB") {
        Some(v) => {
            let s = v.to_string_lossy();
            if s.is_empty() || s == "off" || s == "none" {
                None
            } else {
                Some(PathBuf::from(v))
            }
        }
        None => dirs::data_dir().map(|d| d.join("nimlab").join("tables.sqlite3")),
    }
}

fn entry_of(row: &rusqlite::Row) -> rusqlite::Result<Entry> {
    Ok(Entry {
        id: row.get(0)?,
        key: Key {
            game: row.get(1)?,
            family: row.get(2)?,
            params: row.get(3)?,
            lo: row.get::<_, i64>(4)? as u64,
            hi: row.get::<_, i64>(5)? as u64,
            lengths: row.get(6)?,
            play: row.get(7)?,
            kind: row.get(8)?,
        },
        engine: row.get(9)?,
        complete: row.get::<_, i64>(10)? != 0,
        count: row.get::<_, i64>(11)? as u64,
        canonical_count: row.get::<_, i64>(12)? as u64,
        details: row.get(13)?,
        positions_in_box: row.get::<_, i64>(14)? as u64,
        seconds: row.get(15)?,
        created: row.get(16)?,
    })
}

const COLUMNS: &str = "id, game, family, params, lo, hi, lengths, play, kind, engine, complete, count, canonical_count, details, positions_in_box, seconds, created";

impl Store {
    /// Opens (creating when needed) the store at `path`.
    pub fn open(path: &Path) -> Result<Store, DbError> {
        if let Some(dir) = path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        let conn = Connection::open(path)?;
        conn.busy_timeout(std::time::Duration::from_secs(10))?;
        conn.execute_batch(
            "CREATE TABLE IF NOT EXISTS tables (
                id INTEGER PRIMARY KEY,
                game TEXT NOT NULL, family TEXT NOT NULL, params TEXT NOT NULL,
                lo INTEGER NOT NULL, hi INTEGER NOT NULL, lengths TEXT NOT NULL,
                play TEXT NOT NULL, kind TEXT NOT NULL, engine TEXT NOT NULL,
                complete INTEGER NOT NULL DEFAULT 0,
                count INTEGER NOT NULL DEFAULT 0, canonical_count INTEGER NOT NULL DEFAULT 0,
                details TEXT NOT NULL DEFAULT '', positions_in_box INTEGER NOT NULL DEFAULT 0,
                seconds REAL NOT NULL DEFAULT 0, created TEXT NOT NULL DEFAULT (datetime('now'))
             );
             CREATE INDEX IF NOT EXISTS tables_key ON tables (game, play, kind, complete);
             CREATE TABLE IF NOT EXISTS chunks (
                table_id INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
                seq INTEGER NOT NULL, data BLOB NOT NULL, PRIMARY KEY (table_id, seq)
             );",
        )?;
        conn.execute_batch("PRAGMA foreign_keys = ON;")?;
        Ok(Store {
            conn,
            path: path.to_path_buf(),
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The complete table with this key, if stored.
    pub fn find(&self, key: &Key) -> Result<Option<Entry>, DbError> {
        self.conn
            .query_row(
                &format!(
                    "SELECT {COLUMNS} FROM tables WHERE game = ?1 AND lo = ?2 AND hi = ?3 AND lengths = ?4
                     AND play = ?5 AND kind = ?6 AND complete = 1 ORDER BY id DESC LIMIT 1"
                ),
                params![key.game, key.lo as i64, key.hi as i64, key.lengths, key.play, key.kind],
                entry_of,
            )
            .optional()
    }

    /// Every table, complete or not, oldest first.
    pub fn list(&self) -> Result<Vec<Entry>, DbError> {
        let mut st = self
            .conn
            .prepare(&format!("SELECT {COLUMNS} FROM tables ORDER BY id"))?;
        let rows = st.query_map([], entry_of)?;
        rows.collect()
    }

    /// The complete tables of `game` with `play` and `kind`.
    pub fn tables_of(&self, game: &str, play: &str, kind: &str) -> Result<Vec<Entry>, DbError> {
        let mut st = self.conn.prepare(&format!(
            "SELECT {COLUMNS} FROM tables WHERE game = ?1 AND play = ?2 AND kind = ?3 AND complete = 1 ORDER BY hi"
        ))?;
        let rows = st.query_map(params![game, play, kind], entry_of)?;
        rows.collect()
    }

    pub fn get(&self, id: i64) -> Result<Option<Entry>, DbError> {
        self.conn
            .query_row(
                &format!("SELECT {COLUMNS} FROM tables WHERE id = ?1"),
                params![id],
                entry_of,
            )
            .optional()
    }

    /// The data of table `id`, whole.
    pub fn data(&self, id: i64) -> Result<Vec<u8>, DbError> {
        let mut st = self
            .conn
            .prepare("SELECT data FROM chunks WHERE table_id = ?1 ORDER BY seq")?;
        let mut out = Vec::new();
        let mut rows = st.query(params![id])?;
        while let Some(row) = rows.next()? {
            let b: Vec<u8> = row.get(0)?;
            out.extend_from_slice(&b);
        }
        Ok(out)
    }

    /// Stores a solved table in one transaction (replacing any older or incomplete one with the same
    /// key); returns its id.
    #[allow(clippy::too_many_arguments)]
    pub fn save(
        &mut self,
        key: &Key,
        engine: &str,
        count: u64,
        canonical_count: u64,
        details: &str,
        positions_in_box: u64,
        seconds: f64,
        data: &[u8],
    ) -> Result<i64, DbError> {
        let tx = self.conn.transaction()?;
        let old: Vec<i64> = {
            let mut st = tx.prepare(
                "SELECT id FROM tables WHERE game = ?1 AND lo = ?2 AND hi = ?3 AND lengths = ?4 AND play = ?5 AND kind = ?6",
            )?;
            let rows = st.query_map(
                params![
                    key.game,
                    key.lo as i64,
                    key.hi as i64,
                    key.lengths,
                    key.play,
                    key.kind
                ],
                |r| r.get(0),
            )?;
            rows.collect::<Result<_, _>>()?
        };
        for id in old {
            tx.execute("DELETE FROM chunks WHERE table_id = ?1", params![id])?;
            tx.execute("DELETE FROM tables WHERE id = ?1", params![id])?;
        }
        tx.execute(
            "INSERT INTO tables (game, family, params, lo, hi, lengths, play, kind, engine, complete,
                                 count, canonical_count, details, positions_in_box, seconds)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, 0, ?10, ?11, ?12, ?13, ?14)",
            params![
                key.game,
                key.family,
                key.params,
                key.lo as i64,
                key.hi as i64,
                key.lengths,
                key.play,
                key.kind,
                engine,
                count as i64,
                canonical_count as i64,
                details,
                positions_in_box as i64,
                seconds
            ],
        )?;
        let id = tx.last_insert_rowid();
        for (seq, chunk) in data.chunks(CHUNK).enumerate() {
            tx.execute(
                "INSERT INTO chunks (table_id, seq, data) VALUES (?1, ?2, ?3)",
                params![id, seq as i64, chunk],
            )?;
        }
        tx.execute("UPDATE tables SET complete = 1 WHERE id = ?1", params![id])?;
        tx.commit()?;
        Ok(id)
    }

    /// Removes table `id`; false when there is none.
    pub fn remove(&mut self, id: i64) -> Result<bool, DbError> {
        let tx = self.conn.transaction()?;
        tx.execute("DELETE FROM chunks WHERE table_id = ?1", params![id])?;
        let n = tx.execute("DELETE FROM tables WHERE id = ?1", params![id])?;
        tx.commit()?;
        Ok(n > 0)
    }
}

/// Encodes P-positions (entries below 256) as length-prefixed byte strings.
pub fn encode_positions(out: &mut Vec<u8>, p: &[u64]) {
    out.push(p.len() as u8);
    out.extend(p.iter().map(|&x| x as u8));
}

/// Decodes what [`encode_positions`] wrote.
pub fn decode_positions(data: &[u8]) -> Vec<Vec<u64>> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < data.len() {
        let m = data[i] as usize;
        out.push(data[i + 1..i + 1 + m].iter().map(|&x| x as u64).collect());
        i += 1 + m;
    }
    out
}

/// Encodes Grundy values, two bytes each.
pub fn encode_values(values: &[u16]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

pub fn decode_values(data: &[u8]) -> Vec<u16> {
    data.chunks_exact(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]))
        .collect()
}

impl Store {
    /// The Grundy value at lexicographic index `idx` of Grundy table `id`.
    pub fn value_at(&self, id: i64, idx: u64) -> Result<Option<u16>, DbError> {
        let off = idx as usize * 2;
        let (seq, at) = (off / CHUNK, off % CHUNK);
        let data: Option<Vec<u8>> = self
            .conn
            .query_row(
                "SELECT data FROM chunks WHERE table_id = ?1 AND seq = ?2",
                params![id, seq as i64],
                |r| r.get(0),
            )
            .optional()?;
        Ok(data.and_then(|d| d.get(at..at + 2).map(|b| u16::from_le_bytes([b[0], b[1]]))))
    }
}

fn in_box(e: &Entry, p: &[u64]) -> bool {
    e.key
        .lengths
        .split(',')
        .any(|l| l.parse::<usize>().ok() == Some(p.len()))
        && p.iter().all(|&x| x >= e.key.lo && x <= e.key.hi)
}

/// The outcome of `p` from a stored P-set table of `game` whose box holds `p`: (is P, table id).
pub fn lookup_outcome(
    store: &Store,
    game: &dyn nimlab_core::Game,
    p: &[u64],
    play: nimlab_core::Play,
) -> Result<Option<(bool, i64)>, DbError> {
    for e in store.tables_of(&game.id(), play.name(), "pset")? {
        if in_box(&e, p) {
            let c = game.canonical(p);
            let data = store.data(e.id)?;
            let found = decode_positions(&data).iter().any(|q| *q == c);
            return Ok(Some((found, e.id)));
        }
    }
    Ok(None)
}

/// The Grundy value of `p` from a stored Grundy table of `game` whose box holds `p`: (value, id).
pub fn lookup_grundy(
    store: &Store,
    game: &dyn nimlab_core::Game,
    p: &[u64],
) -> Result<Option<(u16, i64)>, DbError> {
    for e in store.tables_of(&game.id(), "normal", "grundy")? {
        if in_box(&e, p) {
            let r = e.key.hi - e.key.lo + 1;
            let idx = p.iter().fold(0u64, |a, &x| a * r + (x - e.key.lo));
            if let Some(v) = store.value_at(e.id, idx)? {
                return Ok(Some((v, e.id)));
            }
        }
    }
    Ok(None)
}
