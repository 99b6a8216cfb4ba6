//! One-heap Grundy sequences in the store: g(0..=n) of an octal, hexadecimal or subtraction game
//! or of Grundy's game (`nimlab sequence`), one row of `sequences` per game and its values in
//! `sequence_chunks`.
//!
//! A row is keyed by the game's canonical code (`OctalGame::sequence_key`: `subtraction(1,2)` and
//! `octal(0.33)` share one) and holds n (the largest heap with a value), the `--max` of the run
//! that wrote it (`requested`), `complete` (that run reached its `--max`), the method that ran and
//! the seconds spent over every run. The values are u32 little-endian, [`SEQUENCE_CHUNK`] values a
//! chunk. A heap's value does not depend on the largest heap asked for, so every stored prefix is
//! exact whether or not its run completed: a run that is stopped (Ctrl-C, kill) leaves the prefix
//! of its last save, marked not complete, and a later run extends it. A save rewrites only the
//! chunks from the first one that changed, in one transaction.

use crate::store::{DbError, Store};
use rusqlite::{params, OptionalExtension};

/// Values per chunk (4 MiB).
pub const SEQUENCE_CHUNK: usize = 1 << 20;

/// The tables, created when the store is opened.
pub(crate) const SEQUENCE_TABLES: &str = "
    CREATE TABLE IF NOT EXISTS sequences (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        game TEXT NOT NULL UNIQUE, name TEXT NOT NULL,
        n INTEGER NOT NULL, requested INTEGER NOT NULL, complete INTEGER NOT NULL DEFAULT 0,
        method TEXT NOT NULL, seconds REAL NOT NULL DEFAULT 0,
        updated TEXT NOT NULL DEFAULT (datetime('now')));
    CREATE TABLE IF NOT EXISTS sequence_chunks (
        sequence_id INTEGER NOT NULL REFERENCES sequences(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL, data BLOB NOT NULL, PRIMARY KEY (sequence_id, seq));";

/// A stored sequence (without its values).
#[derive(Debug, Clone, PartialEq)]
pub struct SequenceEntry {
    pub id: i64,
    /// The key: the canonical code, e.g. `octal(0.6)`, `grundy`.
    pub game: String,
    /// The game as the run that wrote it named it, e.g. `subtraction(1,2)`.
    pub name: String,
    /// Values of heaps 0..=n are stored.
    pub n: u64,
    /// The `--max` of the run that wrote the row last.
    pub requested: u64,
    /// True when that run reached its `--max` (false: stopped; the prefix is exact all the same).
    pub complete: bool,
    /// The method that computed the values, in words (`sparse`, `plain`, or both joined by `+`).
    pub method: String,
    /// Seconds of computation over every run that led to it.
    pub seconds: f64,
    pub updated: String,
}

const SEQ_COLUMNS: &str = "id, game, name, n, requested, complete, method, seconds, updated";

fn entry_of(row: &rusqlite::Row) -> rusqlite::Result<SequenceEntry> {
    Ok(SequenceEntry {
        id: row.get(0)?,
        game: row.get(1)?,
        name: row.get(2)?,
        n: row.get::<_, i64>(3)? as u64,
        requested: row.get::<_, i64>(4)? as u64,
        complete: row.get::<_, i64>(5)? != 0,
        method: row.get(6)?,
        seconds: row.get(7)?,
        updated: row.get(8)?,
    })
}

/// `a` and `b` as one method: `a` when equal, else both joined by `+` (without repeats).
pub fn join_methods(a: &str, b: &str) -> String {
    let mut parts: Vec<&str> = a.split('+').filter(|s| !s.is_empty()).collect();
    for p in b.split('+') {
        if !p.is_empty() && !parts.contains(&p) {
            parts.push(p);
        }
    }
    parts.join("+")
}

impl Store {
    /// The stored sequence of the game with this key, if any.
    pub fn sequence(&self, game: &str) -> Result<Option<SequenceEntry>, DbError> {
        self.conn
            .query_row(
                &format!("SELECT {SEQ_COLUMNS} FROM sequences WHERE game = ?1"),
                params![game],
                entry_of,
            )
            .optional()
    }

    /// Every stored sequence, oldest first.
    pub fn sequences(&self) -> Result<Vec<SequenceEntry>, DbError> {
        let mut st = self
            .conn
            .prepare(&format!("SELECT {SEQ_COLUMNS} FROM sequences ORDER BY id"))?;
        let rows = st.query_map([], entry_of)?;
        rows.collect()
    }

    /// The values g(0..=min(upto, n)) of the stored sequence `e`, reading only the chunks needed.
    pub fn sequence_values(&self, e: &SequenceEntry, upto: u64) -> Result<Vec<u32>, DbError> {
        let last = upto.min(e.n);
        let want = usize::try_from(last)
            .ok()
            .and_then(|l| l.checked_add(1))
            .ok_or(DbError::InvalidQuery)?;
        let mut st = self.conn.prepare(
            "SELECT data FROM sequence_chunks WHERE sequence_id = ?1 AND seq <= ?2 ORDER BY seq",
        )?;
        let mut rows = st.query(params![e.id, (last / SEQUENCE_CHUNK as u64) as i64])?;
        let mut out = Vec::with_capacity(want);
        while let Some(row) = rows.next()? {
            let b: Vec<u8> = row.get(0)?;
            out.extend(
                b.chunks_exact(4)
                    .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])),
            );
        }
        out.truncate(want);
        Ok(out)
    }

    /// Saves `values` = g(0..values.len()) of the game keyed `game` (named `name`), computed by a
    /// run asked for heaps up to `requested` that reached it when `complete`, with the seconds of
    /// every run so far; returns the row's id. `values` extends the stored prefix (the chunks
    /// before the first one that grows are kept as they are); a shorter list than the stored one
    /// changes nothing. Everything in one transaction, so a stopped save leaves the previous one.
    #[allow(clippy::too_many_arguments)]
    pub fn save_sequence(
        &mut self,
        game: &str,
        name: &str,
        values: &[u32],
        requested: u64,
        complete: bool,
        method: &str,
        seconds: f64,
    ) -> Result<i64, DbError> {
        let Some(n) = values.len().checked_sub(1) else {
            return Err(DbError::InvalidQuery);
        };
        let tx = self.conn.transaction()?;
        let old: Option<(i64, i64)> = tx
            .query_row(
                "SELECT id, n FROM sequences WHERE game = ?1",
                params![game],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?;
        let (id, from_chunk) = match old {
            Some((id, old_n)) if old_n as u64 > n as u64 => {
                tx.commit()?;
                return Ok(id);
            }
            Some((id, old_n)) => {
                tx.execute(
                    "UPDATE sequences SET name = ?2, n = ?3, requested = ?4, complete = ?5,
                     method = ?6, seconds = ?7, updated = datetime('now') WHERE id = ?1",
                    params![
                        id,
                        name,
                        n as i64,
                        requested as i64,
                        i64::from(complete),
                        method,
                        seconds
                    ],
                )?;
                (id, (old_n as usize + 1) / SEQUENCE_CHUNK)
            }
            None => {
                tx.execute(
                    "INSERT INTO sequences (game, name, n, requested, complete, method, seconds)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                    params![
                        game,
                        name,
                        n as i64,
                        requested as i64,
                        i64::from(complete),
                        method,
                        seconds
                    ],
                )?;
                (tx.last_insert_rowid(), 0)
            }
        };
        tx.execute(
            "DELETE FROM sequence_chunks WHERE sequence_id = ?1 AND seq >= ?2",
            params![id, from_chunk as i64],
        )?;
        for (i, chunk) in values.chunks(SEQUENCE_CHUNK).enumerate().skip(from_chunk) {
            let data: Vec<u8> = chunk.iter().flat_map(|v| v.to_le_bytes()).collect();
            tx.execute(
                "INSERT INTO sequence_chunks (sequence_id, seq, data) VALUES (?1, ?2, ?3)",
                params![id, i as i64, data],
            )?;
        }
        tx.commit()?;
        Ok(id)
    }

    /// Removes the stored sequence of the game keyed `game`; false when there is none.
    pub fn remove_sequence(&mut self, game: &str) -> Result<bool, DbError> {
        let tx = self.conn.transaction()?;
        tx.execute(
            "DELETE FROM sequence_chunks WHERE sequence_id IN (SELECT id FROM sequences WHERE game = ?1)",
            params![game],
        )?;
        let n = tx.execute("DELETE FROM sequences WHERE game = ?1", params![game])?;
        tx.commit()?;
        Ok(n > 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sequence_is_saved_extended_and_read_by_prefix() {
        let dir = std::env::temp_dir().join(format!("nimlab-store-seq-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let path = dir.join("t.sqlite3");
        let mut s = Store::open(&path).unwrap();
        let all: Vec<u32> = (0..(SEQUENCE_CHUNK as u32 * 2 + 7))
            .map(|i| i.wrapping_mul(2_654_435_761) >> 20)
            .collect();
        let short = SEQUENCE_CHUNK + 3;
        let id = s
            .save_sequence(
                "octal(0.6)",
                "octal(0.6)",
                &all[..short],
                10_000_000,
                false,
                "sparse",
                1.0,
            )
            .unwrap();
        let e = s.sequence("octal(0.6)").unwrap().unwrap();
        assert_eq!(
            (e.n, e.complete, e.requested),
            (short as u64 - 1, false, 10_000_000)
        );
        assert_eq!(s.sequence_values(&e, 5).unwrap(), all[..6]);
        assert_eq!(s.sequence_values(&e, u64::MAX).unwrap(), all[..short]);
        // Extended: the same row, the new values readable across the chunks.
        let again = s
            .save_sequence(
                "octal(0.6)",
                "octal(0.6)",
                &all,
                all.len() as u64 - 1,
                true,
                "sparse+plain",
                2.0,
            )
            .unwrap();
        assert_eq!(again, id);
        let e = s.sequence("octal(0.6)").unwrap().unwrap();
        assert!(e.complete && e.method == "sparse+plain");
        assert_eq!(s.sequence_values(&e, u64::MAX).unwrap(), all);
        // A shorter list changes nothing.
        s.save_sequence("octal(0.6)", "x", &all[..10], 9, true, "plain", 0.0)
            .unwrap();
        assert_eq!(s.sequence("octal(0.6)").unwrap().unwrap(), e);
        assert_eq!(join_methods("sparse", "plain"), "sparse+plain");
        assert_eq!(join_methods("sparse+plain", "sparse"), "sparse+plain");
        assert!(s.remove_sequence("octal(0.6)").unwrap());
        assert!(s.sequence("octal(0.6)").unwrap().is_none());
        assert!(s.sequences().unwrap().is_empty());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
