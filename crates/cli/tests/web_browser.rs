//! End to end: `nimlab serve` on a free loopback port, the page loaded in headless Chromium (driven
//! through chromedriver's WebDriver protocol), a whole CN(5,3) game played by clicking, and the
//! computer winning from an N-position; then the drawings of a chip game, of ECN(8,{1,2},3) (step
//! chords, a move refused or drawn along its facet) and of a general complex (shaded faces). Screenshots are written to the
//! `nimlab-browser` folder of Cargo's test scratch directory (`CARGO_TARGET_TMPDIR`).
//!
//! Needs Debian's `chromium` and `chromium-driver` on `PATH` (CI installs them in `.ci/run`). Without
//! them the test says `SKIPPED` on stderr and passes, unless `NIMLAB_REQUIRE_BROWSER=1` is set (as in
//! CI), in which case it fails.

mod common;

use common::which;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Kills the processes this test started when it ends, however it ends.
struct Kill(Vec<Child>);
impl Drop for Kill {
    fn drop(&mut self) {
        for c in &mut self.0 {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

/// Starts a process and reads stdout lines until `find` extracts a value from one.
fn start(cmd: &mut Command, find: impl Fn(&str) -> Option<String>) -> (Child, String) {
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {cmd:?}: {e}"));
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let deadline = Instant::now() + Duration::from_secs(30);
    while Instant::now() < deadline {
        match lines.next() {
            Some(Ok(l)) => {
                if let Some(v) = find(&l) {
                    // Keep draining stdout so that the process never blocks on a full pipe.
                    std::thread::spawn(move || for _ in lines.by_ref() {});
                    return (child, v);
                }
            }
            _ => break,
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    panic!("{cmd:?} did not report its address");
}

/// Chromium and chromedriver from `PATH`; `None` (after saying `SKIPPED` on stderr) when either is
/// missing, and a failure then when `NIMLAB_REQUIRE_BROWSER=1`.
fn browser_tools() -> Option<(PathBuf, PathBuf)> {
    let chromium = which("chromium").or_else(|| which("chromium-browser"));
    let driver = which("chromedriver");
    if let (Some(c), Some(d)) = (chromium.clone(), driver.clone()) {
        return Some((c, d));
    }
    let missing: Vec<&str> = [
        ("chromium", chromium.is_none()),
        ("chromedriver", driver.is_none()),
    ]
    .into_iter()
    .filter_map(|(name, gone)| gone.then_some(name))
    .collect();
    let why = format!(
        "{} not found on PATH (Debian: apt-get install chromium chromium-driver)",
        missing.join(" and ")
    );
    nimlab_testkit::tools::need("web_browser", "browser", Err(why))
}

/// One HTTP/1.1 request with a JSON body; the status and the JSON answer.
fn http(port: u16, method: &str, path: &str, body: Option<&Value>) -> (u16, Value) {
    let mut s = TcpStream::connect(("127.0.0.1", port)).expect("connect to chromedriver");
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let payload = body.map(|b| b.to_string()).unwrap_or_default();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{payload}",
        payload.len()
    )
    .unwrap();
    // Read the head, then exactly Content-Length bytes (chromedriver may keep the connection open).
    let mut buf = Vec::new();
    let mut chunk = [0u8; 8192];
    let head_end = loop {
        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
        let n = s.read(&mut chunk).unwrap();
        assert!(n > 0, "connection closed before the answer's head");
        buf.extend_from_slice(&chunk[..n]);
    };
    let head = String::from_utf8_lossy(&buf[..head_end]).to_ascii_lowercase();
    let status: u16 = head.split(' ').nth(1).unwrap().parse().unwrap();
    let length = head.lines().find_map(|l| {
        l.strip_prefix("content-length:")
            .map(|v| v.trim().parse::<usize>().unwrap())
    });
    let body = match length {
        Some(len) => {
            while buf.len() < head_end + len {
                let n = s.read(&mut chunk).unwrap();
                assert!(n > 0, "connection closed before the answer's body");
                buf.extend_from_slice(&chunk[..n]);
            }
            String::from_utf8_lossy(&buf[head_end..head_end + len]).into_owned()
        }
        None => {
            s.read_to_end(&mut buf).unwrap();
            let rest = String::from_utf8_lossy(&buf[head_end..]).into_owned();
            if head.contains("transfer-encoding: chunked") {
                dechunk(&rest)
            } else {
                rest
            }
        }
    };
    let v = serde_json::from_str(&body).unwrap_or(Value::Null);
    (status, v)
}

fn dechunk(mut s: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = s.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 {
            break;
        }
        out.push_str(&rest[..n]);
        s = &rest[n + 2..];
    }
    out
}

fn base64_decode(s: &str) -> Vec<u8> {
    let val = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        _ => 63,
    };
    let bytes: Vec<u8> = s
        .bytes()
        .filter(|c| c.is_ascii_alphanumeric() || *c == b'+' || *c == b'/')
        .collect();
    let mut out = Vec::with_capacity(bytes.len() * 3 / 4);
    for chunk in bytes.chunks(4) {
        let mut n = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            n |= (val(c) as u32) << (18 - 6 * i);
        }
        for i in 0..chunk.len().saturating_sub(1) {
            out.push((n >> (16 - 8 * i)) as u8);
        }
    }
    out
}

/// A WebDriver session.
struct Browser {
    port: u16,
    session: String,
}

impl Browser {
    fn cmd(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let (status, v) = http(
            self.port,
            method,
            &format!("/session/{}{path}", self.session),
            body.as_ref(),
        );
        assert_eq!(status, 200, "{method} {path}: {v}");
        v["value"].clone()
    }
    fn js(&self, script: &str) -> Value {
        self.cmd(
            "POST",
            "/execute/sync",
            Some(json!({"script": script, "args": []})),
        )
    }
    /// Opens `url` in the page.
    fn go(&self, url: &str) {
        self.cmd("POST", "/url", Some(json!({ "url": url })));
    }
    /// True when the element `id` is not hidden.
    fn shown(&self, id: &str) -> bool {
        !self
            .js(&format!("return document.getElementById('{id}').hidden;"))
            .as_bool()
            .unwrap()
    }
    /// The page address's parameter `key` (null when absent).
    fn address(&self, key: &str) -> Value {
        self.js(&format!(
            "return new URLSearchParams(location.search).get('{key}');"
        ))
    }
    /// True once the status line `id` says something other than "Computing…".
    fn settled(&self, id: &str) -> bool {
        let s = self.text(id);
        !s.is_empty() && !s.starts_with("Computing")
    }
    fn text(&self, id: &str) -> String {
        self.js(&format!(
            "return document.getElementById('{id}').textContent;"
        ))
        .as_str()
        .unwrap_or_default()
        .to_string()
    }
    fn click(&self, css: &str) {
        let e = self.cmd(
            "POST",
            "/element",
            Some(json!({"using": "css selector", "value": css})),
        );
        let id = e
            .as_object()
            .and_then(|o| o.values().next())
            .and_then(|v| v.as_str())
            .unwrap_or_else(|| panic!("no element {css}: {e}"))
            .to_string();
        self.cmd("POST", &format!("/element/{id}/click"), Some(json!({})));
    }
    fn wait_for(&self, what: &str, cond: impl Fn(&Browser) -> bool) {
        let deadline = Instant::now() + Duration::from_secs(30);
        while Instant::now() < deadline {
            if cond(self) {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        panic!(
            "timed out waiting for {what}; status: {:?}, refusal: {:?}",
            self.text("status"),
            self.text("refusal")
        );
    }
    /// The stack heights drawn on the board.
    fn heights(&self) -> Vec<u64> {
        let pos = self.js("return document.getElementById('board').dataset.position;");
        pos.as_str()
            .unwrap()
            .split(',')
            .map(|x| x.parse().unwrap())
            .collect()
    }
    fn rows(&self) -> u64 {
        self.js("return document.querySelectorAll('#history tbody tr').length;")
            .as_u64()
            .unwrap()
    }
    fn screenshot(&self, path: &Path) {
        let b64 = self.cmd("GET", "/screenshot", None);
        let png = base64_decode(b64.as_str().unwrap());
        assert!(png.starts_with(b"\x89PNG"), "a PNG screenshot");
        std::fs::write(path, png).unwrap();
    }
}

/// What a browser test runs against: `nimlab serve` and chromedriver (killed when dropped), a
/// headless Chromium session, the server's address and the folder for screenshots.
struct Setup {
    b: Browser,
    addr: String,
    out: PathBuf,
    profile: PathBuf,
    procs: Kill,
    /// Held while the test runs: the browser tests of this file run one at a time (two Chromiums and
    /// chromedrivers starting at once on a busy machine made each other time out).
    _one_at_a_time: std::sync::MutexGuard<'static, ()>,
}

/// See [`Setup`]'s `_one_at_a_time`.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

impl Setup {
    /// `None` when the browser tools are missing (see [`browser_tools`]); `name` keeps the
    /// Chromium profiles of tests running at once apart.
    fn new(name: &str) -> Option<Setup> {
        let (chromium, driver) = browser_tools()?;
        let one_at_a_time = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
        let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("nimlab-browser");
        let profile = out.join(format!("profile-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&profile);
        std::fs::create_dir_all(&profile).unwrap();

        let (server, addr) = start(common::cmd().args(["serve", "--port", "0"]), |l| {
            l.split("http://")
                .nth(1)
                .map(|a| a.split('/').next().unwrap().to_string())
        });
        let mut procs = Kill(vec![server]);
        let (drv, dport) = start(Command::new(&driver).arg("--port=0"), |l| {
            l.split("started successfully on port ")
                .nth(1)
                .map(|p| p.trim().trim_end_matches('.').to_string())
        });
        procs.0.push(drv);
        let dport: u16 = dport.parse().unwrap();

        let args = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-dev-shm-usage",
            "--window-size=1100,900",
            &format!("--user-data-dir={}", profile.display()),
        ];
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {"binary": chromium.to_str().unwrap(), "args": args},
        }}});
        let (status, v) = http(dport, "POST", "/session", Some(&caps));
        assert_eq!(status, 200, "new session: {v}");
        let b = Browser {
            port: dport,
            session: v["value"]["sessionId"].as_str().unwrap().to_string(),
        };
        Some(Setup {
            b,
            addr,
            out,
            profile,
            procs,
            _one_at_a_time: one_at_a_time,
        })
    }

    /// Ends the browser session, stops the processes and removes the profile.
    fn end(self) {
        self.b.cmd("DELETE", "", None);
        drop(self.procs);
        let _ = std::fs::remove_dir_all(&self.profile);
        // The lock is given back last, with the processes stopped.
    }
}

#[test]
fn a_cn53_game_played_by_clicking_is_won_by_the_computer() {
    let Some(setup) = Setup::new("play") else {
        return;
    };
    let (b, addr, out) = (&setup.b, setup.addr.clone(), setup.out.clone());

    let settled = |b: &Browser| {
        let s = b.text("status");
        s == "Your move." || s == "Game over."
    };
    b.cmd(
        "POST",
        "/url",
        Some(json!({"url": format!("http://{addr}/?game=CN(5,3)&position=1,2,3,4,5&computer=first")})),
    );
    b.wait_for("the computer's first move", |b| settled(b) && b.rows() == 2);
    // Hints off: no value is shown while the game is on (neither the position's nor the history's).
    let start_value = || {
        b.js("return document.querySelector('#history tbody tr td:nth-child(4)').textContent;")
            .as_str()
            .unwrap()
            .to_string()
    };
    assert_eq!(start_value(), "?");
    let outcome = b.text("outcome");
    assert!(outcome.contains("values hidden"), "{outcome}");
    for word in ["P:", "N:", "Grundy", "remoteness", "by "] {
        assert!(!outcome.contains(word), "{word} in {outcome}");
    }
    assert!(!b.text("history").contains("winning move"));
    // Asking (Explain) shows the current position's value.
    b.click("#explain");
    b.wait_for("the explanation", |b| {
        b.text("outcome").contains("P: the player to move loses")
    });

    // An illegal move typed in is refused visibly, and nothing is played.
    b.js("document.getElementById('move-text').value = '9,9,9,9,9';");
    b.click("#play-typed");
    b.wait_for("the refusal", |b| b.text("refusal").contains("Refused"));
    assert_eq!(b.rows(), 2);
    b.js("document.getElementById('move-text').value = '';");

    // Hints: in a P-position no winning move exists; the values are shown: the start was an
    // N-position and the computer's move wins.
    b.click("#hints");
    b.wait_for("the hint", |b| {
        b.text("hint-text").contains("no winning move")
    });
    assert!(start_value().starts_with('N'), "{}", start_value());
    assert!(b.text("history").contains("winning move"));
    // A pending move: the selected window is drawn and the Play button is coloured as losing.
    let i = b.heights().iter().position(|&h| h > 0).unwrap();
    b.click(&format!("#tok-{i}-1"));
    b.wait_for("the pending move", |b| {
        b.js("return document.getElementById('play-move').className;") == "bad"
    });
    std::fs::create_dir_all(&out).unwrap();
    b.screenshot(&out.join("cn53-hints.png"));
    b.click("#hints");

    // Play to the end: each turn, empty the first non-empty stack by clicking its lowest token.
    for _turn in 0..30 {
        if b.text("status") == "Game over." {
            break;
        }
        let rows = b.rows();
        let i = b
            .heights()
            .iter()
            .position(|&h| h > 0)
            .expect("a move is left");
        if b.js("return document.getElementById('play-move').disabled;") == json!(true) {
            b.click(&format!("#tok-{i}-1"));
        }
        b.click("#play-move");
        b.wait_for("the computer's answer", |b| settled(b) && b.rows() > rows);
        assert!(b.text("refusal").is_empty(), "{}", b.text("refusal"));
    }
    assert_eq!(b.text("status"), "Game over.");
    assert_eq!(b.text("result"), "The computer wins.");
    assert!(b.text("outcome").contains("(0,0,0,0,0)"));
    b.screenshot(&out.join("cn53-end.png"));
    // Every computer move was a winning move.
    let verdicts = b.js("return Array.from(document.querySelectorAll('#history tbody tr')).filter(r => r.children[1].textContent === 'computer').map(r => r.children[4].textContent);");
    for v in verdicts.as_array().unwrap() {
        assert_eq!(v, "winning move");
    }

    // A chip game is drawn as boxes of chips, written in Ferguson's notation.
    b.cmd(
        "POST",
        "/url",
        Some(json!({"url": format!("http://{addr}/?game=ET(3)&position=1,1,7&hints=1")})),
    );
    b.wait_for("the ET(3) game", |b| settled(b) && b.rows() == 1);
    let boxes = b.js("return document.querySelectorAll('#board g[id^=box-]').length;");
    assert_eq!(boxes, json!(3));
    let chips = b.js("return document.querySelectorAll('#board circle.chip').length;");
    assert_eq!(chips, json!(9));
    let notation = b.js("return document.querySelector('#board text.notation').textContent;");
    assert_eq!(notation, json!("1^2 7"));
    assert!(b.text("outcome").contains("1^2 7"), "{}", b.text("outcome"));
    b.screenshot(&out.join("et3.png"));

    // Hints off in a chip game: the option buttons come in a neutral order (sorted by position, not
    // winning moves first) and in the game's one notation, which the hints use too.
    b.cmd(
        "POST",
        "/url",
        Some(json!({"url": format!("http://{addr}/?game=ER(7)&position=1%5E5%202%2010")})),
    );
    b.wait_for("the ER(7) options", |b| {
        settled(b)
            && b.js("return document.querySelectorAll('#option-list button.opt').length;")
                .as_u64()
                .unwrap_or(0)
                > 3
    });
    let buttons: Vec<String> = serde_json::from_value(b.js(
        "return Array.from(document.querySelectorAll('#option-list button.opt')).map(b => b.textContent);",
    ))
    .unwrap();
    // Proposition 8 of Ferguson's paper: the winning moves are 1^7, 1^6 10 and 1^4 4^3.
    let winning = ["1^7", "1^6 10", "1^4 4^3"];
    for w in winning {
        assert!(buttons.iter().any(|b| b == w), "{w} in {buttons:?}");
    }
    assert!(
        !buttons[..3].iter().all(|b| winning.contains(&b.as_str())),
        "{buttons:?}"
    );
    assert!(buttons.iter().all(|b| !b.contains(',')), "{buttons:?}");
    let classes = b.js("return Array.from(document.querySelectorAll('#option-list button.opt')).map(b => b.className).join(' ');");
    assert!(!classes.as_str().unwrap().contains("win"), "{classes}");
    b.click("#hints");
    b.wait_for("the ER(7) hint", |b| b.text("hint-text").contains("1^6 10"));
    assert!(
        !b.text("hint-text").contains("(1,"),
        "{}",
        b.text("hint-text")
    );
    b.click("#hints");

    // ECN(8,{1,2},3) on a circle: 8 stack nodes, the 8 chords {i,i+1} and the 8 chords {i,i+2}
    // (counted by hand from the rule: one chord per start i for each step).
    b.cmd(
        "POST",
        "/url",
        Some(json!({"url": format!("http://{addr}/?game=ECN(8,{{1,2}},3)&position=2,1,2,1,2,1,2,3")})),
    );
    b.wait_for("the ECN game", |b| settled(b) && b.rows() == 1);
    let count = |css: &str| {
        b.js(&format!(
            "return document.querySelectorAll('#board {css}').length;"
        ))
        .as_u64()
        .unwrap()
    };
    assert_eq!(count("circle.node"), 8);
    assert_eq!(count("line.chord.step-1"), 8);
    assert_eq!(count("line.chord.step-2"), 8);
    assert_eq!(count("polygon.face"), 0);
    // Stacks 1 and 6 (0-based 0 and 5) lie in no facet together: the move is refused on the page.
    b.click("#tok-0-1");
    b.click("#tok-5-1");
    b.wait_for("the shape warning", |b| {
        b.text("pending").contains("not inside one facet")
    });
    assert_eq!(count("polyline.window.bad"), 1);
    b.click("#clear-move");
    // Stacks 1 and 3 lie in the facet {1,3,5} of step 2: a legal move, drawn along that facet, and
    // played by clicking like any other.
    b.click("#tok-0-1");
    b.click("#tok-2-1");
    b.wait_for("the facet", |_| count("polyline.window") == 1);
    assert!(!b.text("pending").contains("not inside"));
    b.screenshot(&out.join("ecn-8-12-3.png"));
    b.click("#play-move");
    b.wait_for("the computer's answer", |b| settled(b) && b.rows() >= 2);
    assert!(b.text("refusal").is_empty(), "{}", b.text("refusal"));
    let played =
        b.js("return document.querySelector('#history tbody tr:nth-child(2) td.pos').textContent;");
    assert_eq!(played, json!("(0,1,0,1,2,1,2,3)"));

    // A general complex drawn as its graph: facets {1,2,3,4}, {4,5,6}, {6,7}: 7 nodes, the
    // 6 + 3 + 1 = 10 pairs inside a facet as edges, and the two facets of 3 or more stacks shaded.
    b.cmd(
        "POST",
        "/url",
        Some(json!({"url": format!("http://{addr}/?game=simplicial({{1,2,3,4}},{{4,5,6}},{{6,7}})&position=1,2,3,1,2,3,1")})),
    );
    b.wait_for("the complex", |b| settled(b) && b.rows() == 1);
    assert_eq!(count("circle.node"), 7);
    assert_eq!(count("line.edge"), 10);
    assert_eq!(count("polygon.face"), 2);
    b.screenshot(&out.join("simplicial.png"));

    // The research view: the slice of Nim with heap 1 = 5 has one P-position per value of heap 2
    // (heap 3 = 5 xor heap 2, Bouton), drawn as cells; patterns; and discover's verdict with its file.
    b.cmd(
        "POST",
        "/url",
        Some(json!({"url": format!("http://{addr}/research?game=nim&heaps=3&max=15&fix=1=5")})),
    );
    // A link with a game draws its slice.
    b.wait_for("the slice", |b| {
        b.text("slice-status").contains("P-positions")
    });
    assert!(
        b.text("slice-status").contains("16 P-positions"),
        "{}",
        b.text("slice-status")
    );
    let cells = b.js("return Array.from(document.querySelectorAll('#slice rect.p')).map(r => r.querySelector('title').textContent);");
    let cells: Vec<String> = serde_json::from_value(cells).unwrap();
    assert_eq!(cells.len(), 16);
    for c in &cells {
        // "p2 = x, p3 = y: P"
        let nums: Vec<u64> = c
            .split(|ch: char| !ch.is_ascii_digit())
            .filter(|t| !t.is_empty())
            .map(|t| t.parse().unwrap())
            .collect();
        assert_eq!(5 ^ nums[1] ^ nums[3], 0, "{c}");
    }
    b.click("#patterns");
    b.wait_for("the patterns", |b| {
        b.text("patterns-out").contains("canonical P-positions")
    });
    b.screenshot(&out.join("research-slice.png"));
    let z3 = nimlab_testkit::tools::which("z3").ok_or_else(|| "z3 is not on PATH".to_string());
    if nimlab_testkit::tools::need("the research view's discover", "z3", z3).is_some() {
        b.js("document.getElementById('game').value = 'CN(4,2)';");
        b.click("#discover");
        b.wait_for("discover's verdict", |b| {
            !b.text("discover-verdict").starts_with("Discovering")
        });
        assert!(
            b.text("discover-verdict").contains("proved"),
            "{}",
            b.text("discover-verdict")
        );
        assert!(
            b.text("discover-file").contains("a = c"),
            "{}",
            b.text("discover-file")
        );
    }

    setup.end();
}

/// The research view fits the game: a link to CN(4,2)'s slice (a box of 4 stacks) is drawn without
/// the heaps field, which is hidden and not sent; the address keeps the view's state and reproduces
/// the slice; the fields follow the game typed (max_sum for a chip game); hovering a cell of Nim's
/// Grundy slice (heap 1 = 5) shows its position and value, 5 xor b xor c; the Grundy picture has a
/// colour scale; the CSV download holds one row per cell; refusals name the form's fields.
#[test]
fn the_research_view_fits_the_game() {
    let Some(setup) = Setup::new("research") else {
        return;
    };
    let (b, addr) = (&setup.b, setup.addr.clone());
    let go = |url: &str| b.go(url);
    let done = |b: &Browser| b.settled("slice-status");
    let shown = |id: &str| b.shown(id);
    let address = |key: &str| b.address(key);

    // CN(4,2) from a link: drawn with the heaps field (3 by default) hidden and left out.
    go(&format!(
        "http://{addr}/research?game=CN(4,2)&max=5&fix=1=2,2=3"
    ));
    b.wait_for("CN(4,2)'s slice", done);
    let status = b.text("slice-status");
    assert!(
        status.contains("P-positions in the slice p1 = 2, p2 = 3"),
        "{status}"
    );
    assert!(!shown("f-heaps") && !shown("f-max_sum"));
    assert!(shown("f-max") && shown("f-fix"));
    assert_eq!(address("game"), "CN(4,2)");
    assert_eq!(address("max"), "5");
    assert_eq!(address("fix"), "1=2,2=3");
    assert_eq!(address("heaps"), Value::Null);
    let p_cells = b.js("return document.querySelectorAll('#slice rect.p').length;");
    assert!(
        status.contains(&format!("{p_cells} P-positions")),
        "{status}"
    );
    assert_eq!(
        b.js("return document.getElementById('legend').childElementCount;"),
        0,
        "no colour scale for P-positions"
    );

    // The fields follow the game typed: a chip game takes max_sum, not max, heaps or fix.
    b.js("const g = document.getElementById('game'); g.value = 'ER(4)'; g.dispatchEvent(new Event('change'));");
    b.wait_for("ER(4)'s fields", |_| shown("f-max_sum"));
    assert!(!shown("f-heaps") && !shown("f-max") && !shown("f-fix"));

    // Nim's Grundy slice from a link; the address read back from the page draws it again.
    go(&format!(
        "http://{addr}/research?game=nim&heaps=3&max=15&fix=1=5&grundy=true"
    ));
    b.wait_for("Nim's Grundy slice", done);
    let status = b.text("slice-status");
    assert!(
        status.contains("Grundy values of the slice p1 = 5 (256 positions"),
        "{status}"
    );
    assert!(shown("f-heaps") && !shown("f-max_sum"));
    let link = b.js("return location.href;").as_str().unwrap().to_string();
    go("about:blank");
    go(&link);
    b.wait_for("the slice of the copied link", done);
    assert_eq!(b.text("slice-status"), status);
    for (k, v) in [
        ("game", "nim"),
        ("heaps", "3"),
        ("max", "15"),
        ("fix", "1=5"),
        ("grundy", "true"),
    ] {
        assert_eq!(address(k), v, "{k} in {link}");
    }
    assert_eq!(address("misere"), Value::Null);

    // Hovering a cell: its position and value, 5 ^ b ^ c (Bouton).
    for (x, y) in [(0u64, 0u64), (3, 6), (15, 15), (7, 2), (10, 4), (0, 15)] {
        let text = b.js(&format!(
            "const r = document.querySelector('#slice rect[data-x=\"{x}\"][data-y=\"{y}\"]');
             const box = r.getBoundingClientRect();
             r.dispatchEvent(new MouseEvent('mousemove', {{bubbles: true,
                 clientX: box.left + box.width / 2, clientY: box.top + box.height / 2}}));
             return document.getElementById('cell').textContent;"
        ));
        assert_eq!(
            text,
            format!("p1 = 5, p2 = {x}, p3 = {y}: Grundy value {}", 5 ^ x ^ y)
        );
    }

    // The colour scale: one swatch per value 0..=15, coloured as the cells of that value.
    let swatches: Vec<(u64, String)> = serde_json::from_value(b.js(
        "return Array.from(document.querySelectorAll('#legend rect.swatch')).map(r => [Number(r.dataset.value), r.getAttribute('fill')]);",
    ))
    .unwrap();
    assert_eq!(
        swatches.iter().map(|s| s.0).collect::<Vec<_>>(),
        (0..16).collect::<Vec<_>>()
    );
    for (g, fill) in &swatches {
        let cell = b.js(&format!(
            "return document.querySelector('#slice rect[data-x=\"0\"][data-y=\"{}\"]').getAttribute('fill');",
            5 ^ g
        ));
        assert_eq!(cell, fill.as_str(), "value {g}");
    }

    // The CSV download: a header and one row per cell, each value 5 ^ x ^ y.
    assert!(shown("csv"));
    let csv = b.js("return fetch(document.getElementById('csv').href).then(r => r.text());");
    let csv = csv.as_str().unwrap();
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("p2,p3,value"));
    let rows: Vec<Vec<u64>> = lines
        .map(|l| l.split(',').map(|t| t.parse().unwrap()).collect())
        .collect();
    assert_eq!(rows.len(), 256);
    for r in &rows {
        assert_eq!(r[2], 5 ^ r[0] ^ r[1], "{r:?}");
    }
    let name = b.js("return document.getElementById('csv').download;");
    assert!(name.as_str().unwrap().ends_with(".csv"), "{name}");
    b.screenshot(&setup.out.join("research-grundy.png"));

    // A refusal names the form's field: Nim without its number of heaps.
    b.js("document.getElementById('heaps').value = '';");
    b.click("#draw");
    b.wait_for("the refusal", |b| {
        b.text("slice-status").starts_with("Refused")
    });
    let refusal = b.text("slice-status");
    assert!(refusal.contains("the field Heaps"), "{refusal}");
    assert!(
        !refusal.contains("heaps=") && !refusal.contains("--"),
        "{refusal}"
    );
    assert!(!shown("csv"));

    setup.end();
}

/// Kayles (octal 0.77) by the mex over every option: knock down one pin or two adjacent pins, from
/// an end or splitting the row in two.
fn kayles(max: usize) -> Vec<u64> {
    let mut g: Vec<u64> = Vec::new();
    for n in 0..=max {
        let mut seen = std::collections::HashSet::new();
        for take in 1..=2.min(n) {
            let rest = n - take;
            for a in 0..=rest / 2 {
                seen.insert(g[a] ^ g[rest - a]);
            }
        }
        g.push((0..).find(|v| !seen.contains(v)).unwrap());
    }
    g
}

/// The research view's sequence of a one-heap game: Kayles from a link draws g(0..=200) (no slice
/// fields: its moves split a heap, so it has no table on a box), says its period (12 from heap 71,
/// proved), shows each heap's value under the pointer and offers the values as CSV, all as the brute
/// force computes them; the address reproduces it; the view is hidden for CN(4,2); a refusal names
/// the form's field.
#[test]
fn the_sequence_view_draws_a_one_heap_game() {
    let Some(setup) = Setup::new("sequence") else {
        return;
    };
    let (b, addr) = (&setup.b, setup.addr.clone());
    let go = |url: &str| b.go(url);
    let done = |b: &Browser| b.settled("sequence-status");
    let shown = |id: &str| b.shown(id);
    let address = |key: &str| b.address(key);

    go(&format!("http://{addr}/research?game=octal(0.77)&upto=200"));
    b.wait_for("Kayles' sequence", done);
    let status = b.text("sequence-status");
    assert_eq!(status, "octal(0.77) (Kayles): g(n) for n = 0..200");
    let period = b.text("sequence-period");
    assert!(
        period.starts_with("Period 12 from n = 71") && period.contains("proved periodic"),
        "{period}"
    );
    assert!(shown("sequence-view") && shown("f-upto") && shown("sequence"));
    for id in ["f-heaps", "f-max", "f-fix", "draw", "patterns", "slice-row"] {
        assert!(!shown(id), "{id} is shown for Kayles");
    }
    assert_eq!(address("game"), "octal(0.77)");
    assert_eq!(address("upto"), "200");
    assert_eq!(address("view"), "sequence");

    // The value under the pointer, at the middle of each heap's bar.
    let g = kayles(200);
    for n in [0usize, 1, 5, 34, 70, 71, 100, 157, 200] {
        let text = b.js(&format!(
            "const c = document.getElementById('sequence-plot');
             const box = c.getBoundingClientRect();
             const x = Number(c.dataset.left) + ({n} + 0.5) * Number(c.dataset.dx);
             c.dispatchEvent(new MouseEvent('mousemove', {{bubbles: true,
                 clientX: box.left + c.clientLeft + x * c.clientWidth / c.width,
                 clientY: box.top + box.height / 2}}));
             return document.getElementById('sequence-value').textContent;"
        ));
        let part = if n < 71 {
            "before the period"
        } else {
            "periodic part"
        };
        assert_eq!(text, format!("n = {n}: g({n}) = {} ({part})", g[n]));
    }
    // Something is drawn: the canvas is not blank.
    let inked = b.js("const c = document.getElementById('sequence-plot');
         const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
         let k = 0; for (let i = 3; i < d.length; i += 4) if (d[i] > 0) k++; return k;");
    assert!(inked.as_u64().unwrap() > 1000, "{inked}");

    // The CSV: a header and one row per heap, as the brute force.
    assert!(shown("sequence-csv"));
    let csv =
        b.js("return fetch(document.getElementById('sequence-csv').href).then(r => r.text());");
    let mut lines = csv.as_str().unwrap().lines();
    assert_eq!(lines.next(), Some("n,g"));
    let rows: Vec<String> = lines.map(str::to_string).collect();
    let want: Vec<String> = g
        .iter()
        .enumerate()
        .map(|(n, v)| format!("{n},{v}"))
        .collect();
    assert_eq!(rows, want);
    b.screenshot(&setup.out.join("research-sequence.png"));

    // The address read back from the page draws the same sequence.
    let link = b.js("return location.href;").as_str().unwrap().to_string();
    go("about:blank");
    go(&link);
    b.wait_for("the sequence of the copied link", done);
    assert_eq!(b.text("sequence-status"), status);
    assert_eq!(b.text("sequence-period"), period);

    // Grundy's game: no period seen.
    go(&format!("http://{addr}/research?game=grundy&upto=100"));
    b.wait_for("Grundy's game's sequence", done);
    assert_eq!(
        b.text("sequence-period"),
        "No period found up to n = 100 (evidence)"
    );

    // A refusal names the form's field.
    b.js("document.getElementById('upto').value = '200000';");
    b.click("#sequence");
    b.wait_for("the refusal", |b| {
        b.text("sequence-status").starts_with("Refused")
    });
    let refusal = b.text("sequence-status");
    assert!(refusal.contains("Largest heap 200000"), "{refusal}");
    assert!(
        !refusal.contains("max=") && !refusal.contains("--"),
        "{refusal}"
    );
    assert!(!shown("sequence-csv"));

    // CN(4,2) is not a one-heap game: no sequence, its slice as before.
    go(&format!(
        "http://{addr}/research?game=CN(4,2)&max=5&fix=1=2,2=3"
    ));
    b.wait_for("CN(4,2)'s slice", |b| {
        let s = b.text("slice-status");
        !s.is_empty() && !s.starts_with("Computing")
    });
    for id in ["sequence-view", "f-upto", "sequence"] {
        assert!(!shown(id), "{id} is shown for CN(4,2)");
    }
    assert!(shown("draw") && shown("slice-row") && shown("f-max") && shown("f-fix"));
    assert_eq!(address("view"), Value::Null);
    assert_eq!(address("upto"), Value::Null);

    setup.end();
}
