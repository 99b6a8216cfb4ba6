//! Checkpoints of unfinished engine tables, so that a run stopped by Ctrl-C, SIGKILL or a power cut
//! continues where it was.
//!
//! The engines ([`crate::lines`], [`crate::grundy`]) sweep anti-diagonals of blocks; after diagonal
//! `d` everything a later diagonal reads is diagonal `d`'s block stores (plus, for the P-set engine,
//! the P-lines of slabs not yet emitted; for the Grundy engine, the values written so far). Each layer
//! above the engine adds what it holds: the SCN driver the finished circle lengths (their P-lines or
//! values; the per-arc dominance tables are recomputed from them on resume), the planner the canonical
//! P-positions already emitted. A checkpoint is one file per unfinished table in the directory
//! `<store file>.checkpoints/`:
//!
//! ```text
//! "NIMLABCK" | format u32 | header length u32 | header (JSON) | payload length u64 | CRC-32 u32 | payload
//! ```
//!
//! The header names the table (its full store key and the engine version) and how far it got; the
//! CRC-32 covers the header and the payload. A file is written to `NAME.tmp`, fsynced, renamed over
//! `NAME` and the directory fsynced, so a reader sees the previous checkpoint or the new one, whole.
//! The fsync and rename run on a background thread while the engine goes on (the next checkpoint
//! waits for it), so a checkpoint costs the engine about the time to copy its state into the page
//! cache. A checkpoint is used only when its checksum, key and engine version match; a damaged or
//! foreign one is refused, never read.
//!
//! When checkpoints are written: `NIMLAB_CHECKPOINT=every` after every diagonal (tests),
//! `NIMLAB_CHECKPOINT=off` never, `NIMLAB_CHECKPOINT=SECONDS` at most every SECONDS; by default at
//! most every [`DEFAULT_INTERVAL`] seconds and never more often than [`COST_FACTOR`] times the time
//! the last one held the engine up (so they cost under 3% of the run).

use crate::lines::PLine;
use std::fs::{self, File};
use std::io::{self, BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The first bytes of a checkpoint file.
pub const MAGIC: &[u8; 8] = b"NIMLABCK";
/// Version of the file layout and of every engine's section in it (2: SCN checkpoints between
/// circle lengths; 3: lines longer than one word, P-positions at any offset on their line).
pub const FORMAT: u32 = 3;
/// Default shortest time between two checkpoints (seconds).
pub const DEFAULT_INTERVAL: f64 = 20.0;
/// A checkpoint comes at most once per this many times the time the last one held the engine up.
pub const COST_FACTOR: f64 = 40.0;

/// How far an unfinished table got.
#[derive(Debug, Clone, PartialEq)]
pub struct Progress {
    /// Work done and in all, in positions.
    pub done: u64,
    pub total: u64,
    /// Where the sweep stands, in words (e.g. `diagonal 12 of 63, 3 of 32 slabs emitted`).
    pub stage: String,
}

/// The header of a checkpoint.
#[derive(Debug, Clone, PartialEq)]
pub struct Header {
    /// The table's store key, as [`key_text`] writes it.
    pub key: String,
    /// The engine version that wrote it.
    pub engine: String,
    /// The command that continues it.
    pub command: String,
    pub progress: Progress,
    /// Seconds since the Unix epoch when it was written.
    pub written: u64,
    /// Seconds of computation up to it (over every run that led to it).
    pub seconds: f64,
}

impl Header {
    fn to_json(&self) -> String {
        serde_json::json!({
            "key": self.key, "engine": self.engine, "command": self.command,
            "done": self.progress.done, "total": self.progress.total, "stage": self.progress.stage,
            "written": self.written, "seconds": self.seconds,
        })
        .to_string()
    }

    fn from_json(s: &[u8]) -> Option<Header> {
        let v: serde_json::Value = serde_json::from_slice(s).ok()?;
        Some(Header {
            key: v["key"].as_str()?.to_string(),
            engine: v["engine"].as_str()?.to_string(),
            command: v["command"].as_str()?.to_string(),
            progress: Progress {
                done: v["done"].as_u64()?,
                total: v["total"].as_u64()?,
                stage: v["stage"].as_str()?.to_string(),
            },
            written: v["written"].as_u64()?,
            seconds: v["seconds"].as_f64()?,
        })
    }

    /// Percent of the work done.
    pub fn percent(&self) -> f64 {
        100.0 * self.progress.done as f64 / self.progress.total.max(1) as f64
    }
}

/// The text of a store key in a checkpoint header.
pub fn key_text(k: &crate::store::Key) -> String {
    format!(
        "game={};family={};params={};lo={};hi={};lengths={};play={};kind={}",
        k.game, k.family, k.params, k.lo, k.hi, k.lengths, k.play, k.kind
    )
}

/// The checkpoint directory of a store file.
pub fn dir_of(store: &Path) -> PathBuf {
    let mut s = store.as_os_str().to_owned();
    s.push(".checkpoints");
    PathBuf::from(s)
}

/// The checkpoint file of a table (named after its key, with a hash of the key).
pub fn file_of(store: &Path, key: &crate::store::Key) -> PathBuf {
    let text = key_text(key);
    let readable: String = format!(
        "{}-{}-{}-{}-{}",
        key.game, key.kind, key.play, key.hi, key.lengths
    )
    .chars()
    .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
    .take(80)
    .collect();
    dir_of(store).join(format!(
        "{readable}-{:08x}.ckpt",
        crc32fast::hash(text.as_bytes())
    ))
}

/// Why a checkpoint cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// Not a checkpoint, cut short, or the checksum does not match.
    Damaged(String),
    /// A checkpoint of another table or another engine version.
    Foreign(String),
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::Damaged(s) | Refusal::Foreign(s) => f.write_str(s),
        }
    }
}

fn bad(s: impl Into<String>) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, s.into())
}

/// Reads the header of a checkpoint file, with the offset and length of its payload and its CRC.
fn read_header(r: &mut impl Read) -> io::Result<(Header, Vec<u8>, u64, u32)> {
    let mut magic = [0u8; 8];
    r.read_exact(&mut magic)?;
    if &magic != MAGIC {
        return Err(bad("not a nimlab checkpoint"));
    }
    let format = get_u32(r)?;
    if format != FORMAT {
        return Err(bad(format!(
            "checkpoint format {format}, this nimlab reads format {FORMAT}"
        )));
    }
    let hlen = get_u32(r)? as usize;
    if hlen > 1 << 20 {
        return Err(bad("header too long"));
    }
    let mut h = vec![0u8; hlen];
    r.read_exact(&mut h)?;
    let header = Header::from_json(&h).ok_or_else(|| bad("unreadable header"))?;
    let plen = get_u64(r)?;
    let crc = get_u32(r)?;
    Ok((header, h, plen, crc))
}

/// The header of a checkpoint file, unchecked (for listing).
pub fn peek(path: &Path) -> io::Result<Header> {
    let mut f = BufReader::new(File::open(path)?);
    read_header(&mut f).map(|h| h.0)
}

/// Every checkpoint file of a store, with its header (or why it cannot be read).
pub fn list(store: &Path) -> Vec<(PathBuf, io::Result<Header>)> {
    let Ok(rd) = fs::read_dir(dir_of(store)) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = rd
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "ckpt"))
        .collect();
    files.sort();
    files.into_iter().map(|p| (p.clone(), peek(&p))).collect()
}

/// Opens a checkpoint for resuming: checks its checksum (a first pass over the file), its key and
/// its engine version, and returns its header and a reader at the start of its payload.
pub fn open(path: &Path, key: &str, engine: &str) -> Result<(Header, Box<dyn Read>), Refusal> {
    let show = path.display();
    let damaged =
        |e: io::Error| Refusal::Damaged(format!("the checkpoint {show} is damaged ({e})"));
    let mut f = BufReader::with_capacity(1 << 20, File::open(path).map_err(damaged)?);
    let (header, hbytes, plen, crc) = read_header(&mut f).map_err(damaged)?;
    let start = f.stream_position().map_err(damaged)?;
    let mut h = crc32fast::Hasher::new();
    h.update(&hbytes);
    let mut left = plen;
    let mut buf = vec![0u8; 1 << 20];
    while left > 0 {
        let n = f
            .read(&mut buf[..left.min(1 << 20) as usize])
            .map_err(damaged)?;
        if n == 0 {
            return Err(damaged(bad("cut short")));
        }
        h.update(&buf[..n]);
        left -= n as u64;
    }
    if h.finalize() != crc {
        return Err(damaged(bad("checksum mismatch")));
    }
    if header.key != key {
        return Err(Refusal::Foreign(format!(
            "the checkpoint {show} belongs to another table ({})",
            header.key
        )));
    }
    if header.engine != engine {
        return Err(Refusal::Foreign(format!(
            "the checkpoint {show} was written by engine {}, this is {engine}",
            header.engine
        )));
    }
    f.seek(SeekFrom::Start(start)).map_err(damaged)?;
    Ok((header, Box::new(f.take(plen))))
}

/// A layer of a run that writes checkpoints: engines call [`Saver::due`] after each diagonal and, when
/// it says so, [`Saver::save`] with a writer of their state.
pub trait Saver {
    /// True when a checkpoint should be written now.
    fn due(&mut self) -> bool;
    /// Writes a checkpoint: `body` writes the state below this layer.
    fn save(&mut self, p: Progress, body: &mut dyn FnMut(&mut dyn Write) -> io::Result<()>);
}

/// When checkpoints are written.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Policy {
    Never,
    Every,
    /// At most every this many seconds, and at most once per [`COST_FACTOR`] times the last cost.
    Seconds(f64),
}

impl Policy {
    /// From `NIMLAB_CHECKPOINT` (`every`, `off`, or seconds), else the default.
    pub fn from_env() -> Policy {
        match std::env::var("NIMLAB_CHECKPOINT").ok().as_deref() {
            Some("every") => Policy::Every,
            Some("off") | Some("never") | Some("0") => Policy::Never,
            Some(s) => s
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite() && *x > 0.0)
                .map_or(Policy::Seconds(DEFAULT_INTERVAL), Policy::Seconds),
            None => Policy::Seconds(DEFAULT_INTERVAL),
        }
    }
}

/// The checkpoint file of one table: the outermost [`Saver`].
pub struct File1 {
    path: PathBuf,
    key: String,
    engine: String,
    command: String,
    policy: Policy,
    last: Instant,
    last_cost: Duration,
    /// The fsync and rename of the last checkpoint.
    flushing: Option<JoinHandle<io::Result<()>>>,
    /// The first error met (checkpoints stop after it).
    pub error: Option<String>,
    /// Checkpoints written.
    pub written: u64,
    /// Test hook: `NIMLAB_CHECKPOINT_DELAY_MS` sleeps this long after each diagonal.
    delay: Option<Duration>,
    started: Instant,
    /// Seconds of computation before this run (when resumed).
    pub seconds_before: f64,
    /// Time the engine was held up by checkpoints, and the largest payload (bytes).
    pub held_up: Duration,
    pub largest: u64,
}

impl File1 {
    pub fn new(
        path: PathBuf,
        key: String,
        engine: String,
        command: String,
        policy: Policy,
    ) -> File1 {
        let delay = std::env::var("NIMLAB_CHECKPOINT_DELAY_MS")
            .ok()
            .and_then(|s| s.parse::<u64>().ok())
            .map(Duration::from_millis);
        File1 {
            path,
            key,
            engine,
            command,
            policy,
            last: Instant::now(),
            last_cost: Duration::ZERO,
            flushing: None,
            error: None,
            written: 0,
            delay,
            started: Instant::now(),
            seconds_before: 0.0,
            held_up: Duration::ZERO,
            largest: 0,
        }
    }

    /// The checkpoint file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn wait_flush(&mut self) {
        if let Some(h) = self.flushing.take() {
            match h.join() {
                Ok(Ok(())) => {}
                Ok(Err(e)) => self.note(e),
                Err(_) => self.note(io::Error::other("the checkpoint writer panicked")),
            }
        }
    }

    fn note(&mut self, e: io::Error) {
        if self.error.is_none() {
            self.error = Some(format!(
                "writing the checkpoint {}: {e}",
                self.path.display()
            ));
        }
    }

    /// Waits for the last checkpoint to reach the disk.
    pub fn finish(&mut self) {
        self.wait_flush();
    }

    /// Removes the checkpoint (the table is complete).
    pub fn remove(&mut self) {
        self.wait_flush();
        let _ = fs::remove_file(&self.path);
        let _ = fs::remove_file(tmp_of(&self.path));
        if let Some(dir) = self.path.parent() {
            // Only when empty.
            let _ = fs::remove_dir(dir);
        }
    }

    fn write(
        &mut self,
        p: Progress,
        body: &mut dyn FnMut(&mut dyn Write) -> io::Result<()>,
    ) -> io::Result<()> {
        self.wait_flush();
        if let Some(e) = &self.error {
            return Err(io::Error::other(e.clone()));
        }
        let dir = self.path.parent().unwrap_or(Path::new("."));
        fs::create_dir_all(dir)?;
        let tmp = tmp_of(&self.path);
        let header = Header {
            key: self.key.clone(),
            engine: self.engine.clone(),
            command: self.command.clone(),
            progress: p,
            written: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs()),
            seconds: self.seconds_before + self.started.elapsed().as_secs_f64(),
        }
        .to_json();
        let mut f = BufWriter::with_capacity(1 << 20, File::create(&tmp)?);
        f.write_all(MAGIC)?;
        f.write_all(&FORMAT.to_le_bytes())?;
        f.write_all(&(header.len() as u32).to_le_bytes())?;
        f.write_all(header.as_bytes())?;
        let at = (8 + 4 + 4 + header.len()) as u64;
        f.write_all(&[0u8; 12])?;
        let mut w = CrcWriter {
            inner: &mut f,
            crc: crc32fast::Hasher::new(),
            n: 0,
        };
        w.crc.update(header.as_bytes());
        body(&mut w)?;
        let (crc, n) = (w.crc.finalize(), w.n);
        self.largest = self.largest.max(n);
        f.seek(SeekFrom::Start(at))?;
        f.write_all(&n.to_le_bytes())?;
        f.write_all(&crc.to_le_bytes())?;
        let file = f.into_inner().map_err(|e| e.into_error())?;
        let (path, dir) = (self.path.clone(), dir.to_path_buf());
        self.flushing = Some(std::thread::spawn(move || {
            file.sync_all()?;
            drop(file);
            fs::rename(&tmp, &path)?;
            File::open(&dir)?.sync_all()
        }));
        self.written += 1;
        Ok(())
    }
}

fn tmp_of(p: &Path) -> PathBuf {
    let mut s = p.as_os_str().to_owned();
    s.push(".tmp");
    PathBuf::from(s)
}

impl Saver for File1 {
    fn due(&mut self) -> bool {
        if let Some(d) = self.delay {
            std::thread::sleep(d);
        }
        if self.error.is_some() {
            return false;
        }
        match self.policy {
            Policy::Never => false,
            Policy::Every => true,
            Policy::Seconds(s) => {
                let wait = Duration::from_secs_f64(s).max(self.last_cost.mul_f64(COST_FACTOR));
                self.last.elapsed() >= wait
            }
        }
    }

    fn save(&mut self, p: Progress, body: &mut dyn FnMut(&mut dyn Write) -> io::Result<()>) {
        let start = Instant::now();
        if let Err(e) = self.write(p, body) {
            self.note(e);
        }
        self.last_cost = start.elapsed();
        self.held_up += self.last_cost;
        self.last = Instant::now();
    }
}

impl Drop for File1 {
    /// With `NIMLAB_CHECKPOINT_STATS` set, one line on stderr: checkpoints written, the time they held
    /// the engine up, and the largest (for the benchmarks).
    fn drop(&mut self) {
        self.wait_flush();
        if std::env::var_os("NIMLAB_CHECKPOINT_STATS").is_some() {
            eprintln!(
                "nimlab: checkpoints: {} written, {:.3} s holding up the engine, largest payload {:.1} MB",
                self.written,
                self.held_up.as_secs_f64(),
                self.largest as f64 / 1e6
            );
        }
    }
}

/// Counts and checksums what goes through it.
struct CrcWriter<'a> {
    inner: &'a mut dyn Write,
    crc: crc32fast::Hasher,
    n: u64,
}

impl Write for CrcWriter<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let k = self.inner.write(buf)?;
        self.crc.update(&buf[..k]);
        self.n += k as u64;
        Ok(k)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// A layer that writes its own section in front of the state below it, and shifts progress.
pub struct Layer<'a> {
    pub inner: &'a mut dyn Saver,
    pub head: &'a dyn Fn(&mut dyn Write) -> io::Result<()>,
    /// Work done before this layer's part, and the whole work (`None`: the inner progress as it is).
    pub base: u64,
    pub total: Option<u64>,
    /// Put in front of the inner stage text.
    pub stage: String,
}

impl Saver for Layer<'_> {
    fn due(&mut self) -> bool {
        self.inner.due()
    }
    fn save(&mut self, p: Progress, body: &mut dyn FnMut(&mut dyn Write) -> io::Result<()>) {
        let head = self.head;
        let q = Progress {
            done: self.base + p.done,
            total: self.total.unwrap_or(p.total),
            stage: format!("{}{}", self.stage, p.stage),
        };
        self.inner.save(q, &mut |w| {
            head(w)?;
            body(w)
        });
    }
}

/// Keeps every checkpoint in memory (tests: resume from each of them).
#[derive(Default)]
pub struct Memory {
    pub saved: Vec<(Progress, Vec<u8>)>,
}

impl Saver for Memory {
    fn due(&mut self) -> bool {
        true
    }
    fn save(&mut self, p: Progress, body: &mut dyn FnMut(&mut dyn Write) -> io::Result<()>) {
        let mut v = Vec::new();
        body(&mut v).expect("writing to memory");
        self.saved.push((p, v));
    }
}

/// Keeps the checkpoint written when a run is cancelled, and never asks for one otherwise (tests:
/// an interrupted run saves its last finished step and resumes from it).
#[derive(Default)]
pub struct OnlyOnCancel(pub Memory);

impl Saver for OnlyOnCancel {
    fn due(&mut self) -> bool {
        false
    }
    fn save(&mut self, p: Progress, body: &mut dyn FnMut(&mut dyn Write) -> io::Result<()>) {
        self.0.save(p, body)
    }
}

// Little-endian encoding of the sections.

pub fn put_u64(w: &mut dyn Write, x: u64) -> io::Result<()> {
    w.write_all(&x.to_le_bytes())
}

pub fn get_u64(r: &mut dyn Read) -> io::Result<u64> {
    let mut b = [0u8; 8];
    r.read_exact(&mut b)?;
    Ok(u64::from_le_bytes(b))
}

fn get_u32(r: &mut dyn Read) -> io::Result<u32> {
    let mut b = [0u8; 4];
    r.read_exact(&mut b)?;
    Ok(u32::from_le_bytes(b))
}

/// A length read back, refused above `max`.
pub fn get_len(r: &mut dyn Read, max: usize) -> io::Result<usize> {
    let n = get_u64(r)?;
    if n > max as u64 {
        return Err(bad(format!("length {n} above {max}")));
    }
    Ok(n as usize)
}

/// Bytes, with their length.
pub fn put_bytes(w: &mut dyn Write, b: &[u8]) -> io::Result<()> {
    put_u64(w, b.len() as u64)?;
    w.write_all(b)
}

pub fn get_bytes(r: &mut dyn Read, max: usize) -> io::Result<Vec<u8>> {
    let n = get_len(r, max)?;
    let mut v = vec![0u8; n];
    r.read_exact(&mut v)?;
    Ok(v)
}

/// Bytes into a buffer of known length.
pub fn get_bytes_into(r: &mut dyn Read, out: &mut [u8]) -> io::Result<()> {
    let n = get_len(r, out.len())?;
    if n != out.len() {
        return Err(bad("length mismatch"));
    }
    r.read_exact(out)
}

const CHUNK: usize = 1 << 16;

/// Little-endian fixed-width values: the word types of checkpoints.
trait Le: Copy + Default {
    const BYTES: usize;
    fn put(self, buf: &mut Vec<u8>);
    fn get(s: &[u8]) -> Self;
}

impl Le for u64 {
    const BYTES: usize = 8;
    fn put(self, buf: &mut Vec<u8>) {
        buf.extend_from_slice(&self.to_le_bytes());
    }
    fn get(s: &[u8]) -> u64 {
        u64::from_le_bytes(s.try_into().expect("8 bytes"))
    }
}

impl Le for u16 {
    const BYTES: usize = 2;
    fn put(self, buf: &mut Vec<u8>) {
        buf.extend_from_slice(&self.to_le_bytes());
    }
    fn get(s: &[u8]) -> u16 {
        u16::from_le_bytes([s[0], s[1]])
    }
}

/// Values, with their count, written in chunks.
fn put_values<T: Le>(w: &mut dyn Write, v: &[T]) -> io::Result<()> {
    put_u64(w, v.len() as u64)?;
    let mut buf = Vec::with_capacity(CHUNK * T::BYTES);
    for c in v.chunks(CHUNK) {
        buf.clear();
        for &x in c {
            x.put(&mut buf);
        }
        w.write_all(&buf)?;
    }
    Ok(())
}

/// Fills `out` with values read in chunks (the count was read already).
fn read_values<T: Le>(r: &mut dyn Read, out: &mut [T]) -> io::Result<()> {
    let mut buf = vec![0u8; CHUNK * T::BYTES];
    for c in out.chunks_mut(CHUNK) {
        let b = &mut buf[..c.len() * T::BYTES];
        r.read_exact(b)?;
        for (x, s) in c.iter_mut().zip(b.chunks_exact(T::BYTES)) {
            *x = T::get(s);
        }
    }
    Ok(())
}

/// Values into a buffer of known length: the stored count must equal it.
fn get_values_into<T: Le>(r: &mut dyn Read, out: &mut [T]) -> io::Result<()> {
    if get_len(r, out.len())? != out.len() {
        return Err(bad("length mismatch"));
    }
    read_values(r, out)
}

/// At most `max` values, with their count.
fn get_values<T: Le>(r: &mut dyn Read, max: usize) -> io::Result<Vec<T>> {
    let mut v = vec![T::default(); get_len(r, max)?];
    read_values(r, &mut v)?;
    Ok(v)
}

/// Words, with their count.
pub fn put_u64s(w: &mut dyn Write, v: &[u64]) -> io::Result<()> {
    put_values(w, v)
}

/// Words into a buffer of known length.
pub fn get_u64s_into(r: &mut dyn Read, out: &mut [u64]) -> io::Result<()> {
    get_values_into(r, out)
}

pub fn get_u64s(r: &mut dyn Read, max: usize) -> io::Result<Vec<u64>> {
    get_values(r, max)
}

/// 16-bit values, with their count.
pub fn put_u16s(w: &mut dyn Write, v: &[u16]) -> io::Result<()> {
    put_values(w, v)
}

pub fn get_u16s_into(r: &mut dyn Read, out: &mut [u16]) -> io::Result<()> {
    get_values_into(r, out)
}

pub fn get_u16s(r: &mut dyn Read, max: usize) -> io::Result<Vec<u16>> {
    get_values(r, max)
}

/// P-lines (line index, offset on the line), with their count.
pub fn put_lines(w: &mut dyn Write, v: &[PLine]) -> io::Result<()> {
    put_u64(w, v.len() as u64)?;
    let mut buf = Vec::with_capacity(CHUNK * 12);
    for c in v.chunks(CHUNK) {
        buf.clear();
        for &(l, b) in c {
            buf.extend_from_slice(&l.to_le_bytes());
            buf.extend_from_slice(&b.to_le_bytes());
        }
        w.write_all(&buf)?;
    }
    Ok(())
}

pub fn get_lines(r: &mut dyn Read, max: usize) -> io::Result<Vec<PLine>> {
    let n = get_len(r, max)?;
    let mut v = Vec::with_capacity(n);
    let mut b = [0u8; 12];
    for _ in 0..n {
        r.read_exact(&mut b)?;
        v.push((
            u64::from_le_bytes(b[..8].try_into().unwrap()),
            u32::from_le_bytes(b[8..].try_into().unwrap()),
        ));
    }
    Ok(v)
}

/// A check that a value read back is the one expected (geometry of the sweep).
pub fn expect(r: &mut dyn Read, want: u64, what: &str) -> io::Result<()> {
    let got = get_u64(r)?;
    if got != want {
        return Err(bad(format!("{what} is {got}, expected {want}")));
    }
    Ok(())
}
