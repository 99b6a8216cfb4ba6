//! The embedded store of solved tables: one SQLite file (rusqlite, SQLite bundled).
//!
//! Where: `--db PATH`, else the environment variable `NIMLAB_DB`, else `nimlab/tables.sqlite3` in the
//! user's data directory. `NIMLAB_DB=off` (or `none`, or empty) turns the store off.
//!
//! A table is one row of `tables` (game, family, parameters, box, play, kind, engine version, counts,
//! timing, `complete`) and its data in `chunks` (at most 16 MiB each): for a P-set, the canonical
//! P-positions, each as its length then its entries (LEB128 varints); for a Grundy table, the value
//! of every position in the order of its box (two bytes each, little-endian). Ids are never reused.
//! Box tables are keyed by their entries' range and lengths; chip-game tables by `lengths` = `chips`
//! (at most `hi` chips in all) or `spread` (max - min at most `hi`). A table is written in one
//! transaction that sets `complete = 1` last, so a run stopped at any point (Ctrl-C, kill, power loss)
//! leaves nothing marked complete; incomplete rows are cleared when the same table is solved again.
//! The progress of an unfinished engine table is kept beside this file, in `FILE.checkpoints/` (see
//! [`crate::checkpoint`]), and removed once the table is saved here.

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
    pub(crate) conn: Connection,
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

/// The columns of `tables`. `AUTOINCREMENT`: an id is never given again, even after `store rm`.
const TABLES_COLUMNS: &str = "
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game TEXT NOT NULL, family TEXT NOT NULL, params TEXT NOT NULL,
    lo INTEGER NOT NULL, hi INTEGER NOT NULL, lengths TEXT NOT NULL,
    play TEXT NOT NULL, kind TEXT NOT NULL, engine TEXT NOT NULL,
    complete INTEGER NOT NULL DEFAULT 0,
    count INTEGER NOT NULL DEFAULT 0, canonical_count INTEGER NOT NULL DEFAULT 0,
    details TEXT NOT NULL DEFAULT '', positions_in_box INTEGER NOT NULL DEFAULT 0,
    seconds REAL NOT NULL DEFAULT 0, created TEXT NOT NULL DEFAULT (datetime('now'))";

/// Version 1: ids by `AUTOINCREMENT`; positions as LEB128 varints (version 0 wrote one byte per
/// entry, the same bytes for entries below 128). Version 2 adds `characterizations`, the proved
/// characterizations of P-sets (created when the store is opened; nothing else changes); version 3
/// adds `sequences` and `sequence_chunks`, one-heap Grundy sequences ([`crate::sequences`]), created
/// the same way.
const SCHEMA_VERSION: i64 = 3;

/// Brings a store written by an older nimlab to [`SCHEMA_VERSION`], in one transaction: the table of
/// tables is rebuilt with `AUTOINCREMENT` (ids kept), and P-sets whose entries could reach 128 are
/// dropped, since their old one-byte encoding differs from the new one there (they are solved again
/// when asked). Foreign keys are off meanwhile, so no chunk is cascaded away.
fn migrate(conn: &mut Connection) -> Result<(), DbError> {
    let version: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    let old_sql: Option<String> = conn
        .query_row(
            "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'tables'",
            [],
            |r| r.get(0),
        )
        .optional()?;
    let Some(old_sql) = old_sql else {
        return Ok(()); // a new store
    };
    if version >= 1 {
        // Versions 2 and 3 only add tables, which `Store::open` creates.
        return Ok(());
    }
    // The bundled SQLite turns foreign keys on by default: off while the parent table is rebuilt.
    conn.execute_batch("PRAGMA foreign_keys = OFF;")?;
    let tx = conn.transaction()?;
    if !old_sql.contains("AUTOINCREMENT") {
        tx.execute_batch(&format!(
            "CREATE TABLE tables_v1 ({TABLES_COLUMNS});
             INSERT INTO tables_v1 SELECT * FROM tables;
             DROP TABLE tables;
             ALTER TABLE tables_v1 RENAME TO tables;"
        ))?;
    }
    tx.execute_batch(
        "DELETE FROM chunks WHERE table_id IN (SELECT id FROM tables WHERE kind = 'pset' AND hi >= 128);
         DELETE FROM tables WHERE kind = 'pset' AND hi >= 128;",
    )?;
    tx.execute_batch(&format!("PRAGMA user_version = {SCHEMA_VERSION};"))?;
    tx.commit()
}

/// The columns of `characterizations`: a P-set characterization proved for every size, as the text
/// of its file (`families`: a families TOML; `automaton`: Walnut's text format), with the prover that
/// proved it (`smt` or `automata`) and a hash of the text (FNV-1a, 64 bits, in hex).
const CHAR_COLUMNS: &str = "
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game TEXT NOT NULL, play TEXT NOT NULL, format TEXT NOT NULL, text TEXT NOT NULL,
    prover TEXT NOT NULL, hash TEXT NOT NULL, created TEXT NOT NULL DEFAULT (datetime('now'))";

/// A proved characterization of the P-set of one game in one convention.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Characterization {
    pub id: i64,
    /// The game id, e.g. `CN(4,2)`.
    pub game: String,
    /// `normal` or `misere`.
    pub play: String,
    /// `families` (a families TOML) or `automaton` (Walnut's text format).
    pub format: String,
    /// The file's text.
    pub text: String,
    /// `smt` or `automata`.
    pub prover: String,
    /// [`content_hash`] of the text.
    pub hash: String,
    pub created: String,
}

/// The FNV-1a hash (64 bits) of `text`, as 16 hex digits: identifies a characterization's content.
pub fn content_hash(text: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

const CHAR_SELECT: &str =
    "SELECT id, game, play, format, text, prover, hash, created FROM characterizations";

fn characterization_of(row: &rusqlite::Row) -> rusqlite::Result<Characterization> {
    Ok(Characterization {
        id: row.get(0)?,
        game: row.get(1)?,
        play: row.get(2)?,
        format: row.get(3)?,
        text: row.get(4)?,
        prover: row.get(5)?,
        hash: row.get(6)?,
        created: row.get(7)?,
    })
}

const COLUMNS: &str = "id, game, family, params, lo, hi, lengths, play, kind, engine, complete, count, canonical_count, details, positions_in_box, seconds, created";

impl Store {
    /// Opens (creating when needed) the store at `path`.
    pub fn open(path: &Path) -> Result<Store, DbError> {
        if let Some(dir) = path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        let mut conn = Connection::open(path)?;
        conn.busy_timeout(std::time::Duration::from_secs(10))?;
        migrate(&mut conn)?;
        conn.execute_batch(&format!(
            "CREATE TABLE IF NOT EXISTS tables ({TABLES_COLUMNS});
             CREATE INDEX IF NOT EXISTS tables_key ON tables (game, play, kind, complete);
             CREATE TABLE IF NOT EXISTS chunks (
                table_id INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
                seq INTEGER NOT NULL, data BLOB NOT NULL, PRIMARY KEY (table_id, seq)
             );
             CREATE TABLE IF NOT EXISTS characterizations ({CHAR_COLUMNS});
             CREATE INDEX IF NOT EXISTS characterizations_key ON characterizations (game, play);
             {}
             PRAGMA user_version = {SCHEMA_VERSION};",
            crate::sequences::SEQUENCE_TABLES
        ))?;
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

    /// The complete table of the smallest box that holds `key`'s box and is larger: the same game,
    /// lower bound, lengths, play and kind, a larger upper bound (box tables only, not chip games'
    /// sums or spreads). A position's value does not depend on the box, so such a table answers for
    /// `key`'s box.
    pub fn covering(&self, key: &Key) -> Result<Option<Entry>, DbError> {
        self.conn
            .query_row(
                &format!(
                    "SELECT {COLUMNS} FROM tables WHERE game = ?1 AND lo = ?2 AND hi > ?3 AND lengths = ?4
                     AND play = ?5 AND kind = ?6 AND complete = 1 AND lengths NOT IN ('chips', 'spread')
                     ORDER BY hi, id DESC LIMIT 1"
                ),
                params![key.game, key.lo as i64, key.hi as i64, key.lengths, key.play, key.kind],
                entry_of,
            )
            .optional()
    }

    /// Each table whose box a complete table of a larger box holds (see [`Store::covering`]), or a
    /// newer complete table of the same box, with that table's id: what `store gc` removes.
    pub fn covered(&self) -> Result<Vec<(Entry, i64)>, DbError> {
        let all = self.list()?;
        let mut out = Vec::new();
        for e in &all {
            let by = all.iter().find(|b| {
                b.id != e.id
                    && b.complete
                    && !matches!(b.key.lengths.as_str(), "chips" | "spread")
                    && (
                        &b.key.game,
                        b.key.lo,
                        &b.key.lengths,
                        &b.key.play,
                        &b.key.kind,
                    ) == (
                        &e.key.game,
                        e.key.lo,
                        &e.key.lengths,
                        &e.key.play,
                        &e.key.kind,
                    )
                    && (b.key.hi > e.key.hi || (b.key.hi == e.key.hi && b.id > e.id))
            });
            if let Some(b) = by {
                out.push((e.clone(), b.id));
            }
        }
        Ok(out)
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

    /// Saves a proved characterization; returns its id (the id of the same one, when the same text
    /// is already stored for this game, convention and format).
    pub fn save_characterization(
        &mut self,
        game: &str,
        play: &str,
        format: &str,
        text: &str,
        prover: &str,
    ) -> Result<i64, DbError> {
        let hash = content_hash(text);
        let tx = self.conn.transaction()?;
        let old: Option<i64> = tx
            .query_row(
                "SELECT id FROM characterizations WHERE game = ?1 AND play = ?2 AND format = ?3
                 AND hash = ?4 AND text = ?5 ORDER BY id LIMIT 1",
                params![game, play, format, hash, text],
                |r| r.get(0),
            )
            .optional()?;
        let id = match old {
            Some(id) => id,
            None => {
                tx.execute(
                    "INSERT INTO characterizations (game, play, format, text, prover, hash)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                    params![game, play, format, text, prover, hash],
                )?;
                tx.last_insert_rowid()
            }
        };
        tx.commit()?;
        Ok(id)
    }

    /// The proved characterizations of `game` in convention `play`, oldest first.
    pub fn characterizations_of(
        &self,
        game: &str,
        play: &str,
    ) -> Result<Vec<Characterization>, DbError> {
        let mut st = self.conn.prepare(&format!(
            "{CHAR_SELECT} WHERE game = ?1 AND play = ?2 ORDER BY id"
        ))?;
        let rows = st.query_map(params![game, play], characterization_of)?;
        rows.collect()
    }

    /// Every proved characterization, oldest first.
    pub fn characterizations(&self) -> Result<Vec<Characterization>, DbError> {
        let mut st = self.conn.prepare(&format!("{CHAR_SELECT} ORDER BY id"))?;
        let rows = st.query_map([], characterization_of)?;
        rows.collect()
    }

    pub fn characterization(&self, id: i64) -> Result<Option<Characterization>, DbError> {
        self.conn
            .query_row(
                &format!("{CHAR_SELECT} WHERE id = ?1"),
                params![id],
                characterization_of,
            )
            .optional()
    }

    /// Removes characterization `id`; false when there is none.
    pub fn remove_characterization(&mut self, id: i64) -> Result<bool, DbError> {
        let n = self
            .conn
            .execute("DELETE FROM characterizations WHERE id = ?1", params![id])?;
        Ok(n > 0)
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

fn put_varint(out: &mut Vec<u8>, mut x: u64) {
    while x >= 0x80 {
        out.push((x as u8) | 0x80);
        x >>= 7;
    }
    out.push(x as u8);
}

fn get_varint(data: &[u8], i: &mut usize) -> Option<u64> {
    let mut x = 0u64;
    for shift in (0..64).step_by(7) {
        let b = *data.get(*i)?;
        *i += 1;
        x |= ((b & 0x7f) as u64) << shift;
        if b < 0x80 {
            return Some(x);
        }
    }
    None
}

/// Encodes a position as its length then its entries, each an unsigned LEB128 varint (one byte for
/// values below 128).
pub fn encode_positions(out: &mut Vec<u8>, p: &[u64]) {
    put_varint(out, p.len() as u64);
    for &x in p {
        put_varint(out, x);
    }
}

/// Decodes what [`encode_positions`] wrote (a truncated tail is ignored).
pub fn decode_positions(data: &[u8]) -> Vec<Vec<u64>> {
    let mut out = Vec::new();
    for_each_position(data, |p| out.push(p));
    out
}

/// Calls `f` with each position [`encode_positions`] wrote, without holding them all.
pub fn for_each_position(data: &[u8], mut f: impl FnMut(Vec<u64>)) {
    let mut i = 0;
    while i < data.len() {
        let Some(m) = get_varint(data, &mut i) else {
            return;
        };
        let p: Option<Vec<u64>> = (0..m).map(|_| get_varint(data, &mut i)).collect();
        match p {
            Some(p) => f(p),
            None => return,
        }
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_round_trip_at_every_size() {
        let ps: Vec<Vec<u64>> = vec![
            vec![],
            vec![0, 1, 127],
            vec![128, 255, 256, 16383, 16384],
            vec![u64::MAX, 0, 1 << 40],
        ];
        let mut data = Vec::new();
        for p in &ps {
            encode_positions(&mut data, p);
        }
        assert_eq!(decode_positions(&data), ps);
        // Below 128 the encoding is one byte per number (as in version 0 of the store).
        let mut small = Vec::new();
        encode_positions(&mut small, &[3, 0, 127]);
        assert_eq!(small, [3, 3, 0, 127]);
    }

    fn key(hi: u64) -> Key {
        Key {
            game: "CN(3,2)".into(),
            family: String::new(),
            params: String::new(),
            lo: 0,
            hi,
            lengths: "3".into(),
            play: "normal".into(),
            kind: "pset".into(),
        }
    }

    #[test]
    fn ids_are_never_reused() {
        let dir = std::env::temp_dir().join(format!("nimlab-store-ids-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let path = dir.join("t.sqlite3");
        let mut s = Store::open(&path).unwrap();
        let a = s.save(&key(1), "e", 0, 0, "", 0, 0.0, &[]).unwrap();
        let b = s.save(&key(2), "e", 0, 0, "", 0, 0.0, &[]).unwrap();
        assert!(s.remove(b).unwrap());
        drop(s);
        let mut s = Store::open(&path).unwrap();
        let c = s.save(&key(3), "e", 0, 0, "", 0, 0.0, &[]).unwrap();
        assert!(a < b && b < c, "{a} {b} {c}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn characterizations_are_saved_once_listed_by_game_and_removed() {
        let dir = std::env::temp_dir().join(format!("nimlab-store-char-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let path = dir.join("t.sqlite3");
        let mut s = Store::open(&path).unwrap();
        let a = s
            .save_characterization("CN(4,2)", "normal", "families", "x", "smt")
            .unwrap();
        let again = s
            .save_characterization("CN(4,2)", "normal", "families", "x", "smt")
            .unwrap();
        assert_eq!(a, again);
        let b = s
            .save_characterization("CN(4,2)", "misere", "families", "x", "smt")
            .unwrap();
        assert_ne!(a, b);
        let got = s.characterizations_of("CN(4,2)", "normal").unwrap();
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].hash, content_hash("x"));
        assert_ne!(content_hash("x"), content_hash("y"));
        assert!(s
            .characterizations_of("CN(4,3)", "normal")
            .unwrap()
            .is_empty());
        assert!(s.remove_characterization(a).unwrap());
        assert!(!s.remove_characterization(a).unwrap());
        drop(s);
        let s = Store::open(&path).unwrap();
        assert_eq!(s.characterizations().unwrap().len(), 1);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_version_1_store_keeps_its_large_tables() {
        let dir = std::env::temp_dir().join(format!("nimlab-store-v1-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let path = dir.join("t.sqlite3");
        let mut s = Store::open(&path).unwrap();
        let id = s.save(&key(300), "e", 0, 0, "", 0, 0.0, &[]).unwrap();
        s.conn
            .execute_batch("DROP TABLE characterizations; PRAGMA user_version = 1;")
            .unwrap();
        drop(s);
        let mut s = Store::open(&path).unwrap();
        assert!(s.get(id).unwrap().is_some());
        s.save_characterization("nim", "normal", "automaton", "t", "automata")
            .unwrap();
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_version_0_store_is_migrated_keeping_its_ids_and_chunks() {
        let dir = std::env::temp_dir().join(format!("nimlab-store-v0-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t.sqlite3");
        {
            // The schema of version 0, written out by hand, with one small and one large P-set.
            let c = Connection::open(&path).unwrap();
            c.execute_batch(
                "CREATE TABLE tables (id INTEGER PRIMARY KEY, game TEXT NOT NULL, family TEXT NOT NULL,
                   params TEXT NOT NULL, lo INTEGER NOT NULL, hi INTEGER NOT NULL, lengths TEXT NOT NULL,
                   play TEXT NOT NULL, kind TEXT NOT NULL, engine TEXT NOT NULL,
                   complete INTEGER NOT NULL DEFAULT 0, count INTEGER NOT NULL DEFAULT 0,
                   canonical_count INTEGER NOT NULL DEFAULT 0, details TEXT NOT NULL DEFAULT '',
                   positions_in_box INTEGER NOT NULL DEFAULT 0, seconds REAL NOT NULL DEFAULT 0,
                   created TEXT NOT NULL DEFAULT (datetime('now')));
                 CREATE TABLE chunks (table_id INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
                   seq INTEGER NOT NULL, data BLOB NOT NULL, PRIMARY KEY (table_id, seq));
                 INSERT INTO tables (id, game, family, params, lo, hi, lengths, play, kind, engine, complete)
                   VALUES (5, 'CN(3,2)', '', '', 0, 2, '3', 'normal', 'pset', 'e', 1),
                          (7, 'nim', '', '', 0, 200, '2', 'normal', 'pset', 'e', 1);
                 INSERT INTO chunks VALUES (5, 0, x'03010101'), (7, 0, x'02c8c8');",
            )
            .unwrap();
        }
        let mut s = Store::open(&path).unwrap();
        let ids: Vec<i64> = s.list().unwrap().iter().map(|e| e.id).collect();
        assert_eq!(ids, [5]);
        assert_eq!(decode_positions(&s.data(5).unwrap()), [vec![1, 1, 1]]);
        let next = s.save(&key(9), "e", 0, 0, "", 0, 0.0, &[]).unwrap();
        assert!(next > 7, "{next}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
