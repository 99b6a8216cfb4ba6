//! Under load, over a real socket: a burst of research requests fills the research slots, and a
//! question a theorem answers still gets its answer at once, from the quick answers' own slots; a
//! research request that finds no free slot is answered 503 `busy` with a `Retry-After` header.
//!
//! These tests start their own server, with one slot per pool and a short wait for a slot, so that
//! the shared server of the other tests is never the one kept busy.

use super::*;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

/// A server of its own: one quick slot, one research slot, a wait of `queue` for a slot.
fn small_server(queue: Duration) -> SocketAddr {
    common::start(nimlab_web::Capacity {
        quick: 1,
        research: 1,
        queue,
    })
}

/// One answer: the status, the headers (names in lower case) and the body as JSON.
struct Reply {
    status: u16,
    headers: Vec<(String, String)>,
    body: Value,
}

impl Reply {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// GET `path?params` from the server at `addr`.
fn get_from(addr: SocketAddr, path: &str, params: &[(&str, &str)]) -> Reply {
    let q: Vec<String> = params
        .iter()
        .map(|(k, v)| format!("{}={}", common::encode(k), common::encode(v)))
        .collect();
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    write!(
        s,
        "GET {path}?{} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
        q.join("&")
    )
    .unwrap();
    let mut buf = Vec::new();
    s.read_to_end(&mut buf).unwrap();
    let text = String::from_utf8_lossy(&buf).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").expect("an HTTP answer");
    let mut lines = head.lines();
    let status = lines.next().unwrap().split(' ').nth(1).unwrap();
    Reply {
        status: status.parse().unwrap(),
        headers: lines
            .filter_map(|l| l.split_once(':'))
            .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
            .collect(),
        body: serde_json::from_str(body).unwrap_or_else(|e| panic!("{path}: {e}: {body}")),
    }
}

/// A research request that computes for a second or more (about 1.4 s on two cores, and stopped at
/// the request-time limit in any case): a slice of the CN(7,3) box [0..10]^7, which tabulates the
/// P-positions of its nineteen million positions.
const SLOW_SLICE: [(&str, &str); 3] = [
    ("game", "CN(7,3)"),
    ("max", "10"),
    ("fix", "1=0,2=0,3=0,4=0,5=0"),
];

#[test]
fn quick_answers_are_not_starved_by_research() {
    let addr = small_server(Duration::from_millis(300));
    // A burst of three slow research requests: one takes the research slot, the other two wait for it.
    let started = Instant::now();
    let burst: Vec<_> = (0..3)
        .map(|_| {
            std::thread::spawn(move || {
                let r = get_from(addr, "/api/slice", &SLOW_SLICE);
                (r, started.elapsed())
            })
        })
        .collect();
    std::thread::sleep(Duration::from_millis(100));
    // A question that Theorem 2 of the CN(7,4) paper answers: from its own slot, at once.
    let quick = get_from(
        addr,
        "/api/answer",
        &[
            ("ask", "outcome"),
            ("game", "CN(7,4)"),
            ("position", "1,7,5,6,2,3,6"),
        ],
    );
    let answered = started.elapsed();
    assert_eq!(quick.status, 200, "{}", quick.body);
    assert_eq!(quick.body["outcome"], "N", "{}", quick.body);
    assert_eq!(quick.body["method"], "cn-7-4", "{}", quick.body);
    let done: Vec<(Reply, Duration)> = burst.into_iter().map(|t| t.join().unwrap()).collect();
    let computed: Vec<&(Reply, Duration)> = done.iter().filter(|(r, _)| r.status == 200).collect();
    let statuses: Vec<(u16, &Value)> = done
        .iter()
        .map(|(r, _)| (r.status, &r.body["kind"]))
        .collect();
    assert_eq!(
        computed.len(),
        1,
        "one computed, the others refused: {statuses:?}"
    );
    // The answer came while the research slot was still computing.
    assert!(
        answered < computed[0].1,
        "the answer ({answered:?}) should come before the research answer ({:?})",
        computed[0].1
    );
    // The two that found no free slot: 503 busy, with when to try again in the header and in words.
    for (r, _) in done.iter().filter(|(r, _)| r.status != 200) {
        assert_eq!(r.status, 503, "{}", r.body);
        assert_eq!(r.body["kind"], "busy", "{}", r.body);
        let seconds: u64 = r
            .header("retry-after")
            .expect("a Retry-After header")
            .parse()
            .expect("Retry-After in seconds");
        assert!(seconds >= 1, "{seconds}");
        assert_eq!(r.body["retry_after"], seconds, "{}", r.body);
        let e = r.body["error"].as_str().unwrap();
        assert!(e.contains(&format!("try again in {seconds} s")), "{e}");
        assert!(e.contains("research"), "{e}");
    }
}

#[test]
fn other_errors_carry_no_retry_after() {
    // No Retry-After where waiting would not help: bad input.
    let addr = small_server(Duration::from_millis(300));
    let r = get_from(
        addr,
        "/api/answer",
        &[("ask", "outcome"), ("game", "chess")],
    );
    assert_eq!(r.status, 400, "{}", r.body);
    assert_eq!(r.header("retry-after"), None);
    assert!(r.body.get("retry_after").is_none(), "{}", r.body);
}
