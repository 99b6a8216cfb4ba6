//! Helpers shared by the API tests (`mod common;` in each file): one `nimlab serve` for the whole test
//! binary on a free loopback port, and plain HTTP/1.1 GET requests to it over a real socket.

// Each test file is its own crate and uses only some of these.
#![allow(dead_code)]

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::OnceLock;

/// One server for the whole suite, on a free loopback port.
pub fn server() -> SocketAddr {
    static ADDR: OnceLock<SocketAddr> = OnceLock::new();
    *ADDR.get_or_init(|| start(nimlab_web::Capacity::default()))
}

/// A server of its own, with these computation slots, on a free loopback port.
pub fn start(capacity: nimlab_web::Capacity) -> SocketAddr {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async move {
            let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            tx.send(l.local_addr().unwrap()).unwrap();
            nimlab_web::serve_with(l, nimlab_web::StoreHandle::none(), capacity)
                .await
                .unwrap();
        });
    });
    rx.recv().unwrap()
}

/// Percent-encodes all but letters, digits and `-_.(),`.
pub fn encode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'(' | b')' | b',' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// GET `path` with the query `params`; the status, the content type and the body.
pub fn get_raw(path: &str, params: &[(&str, &str)]) -> (u16, String, String) {
    let q: Vec<String> = params
        .iter()
        .map(|(k, v)| format!("{}={}", encode(k), encode(v)))
        .collect();
    let target = if q.is_empty() {
        path.to_string()
    } else {
        format!("{path}?{}", q.join("&"))
    };
    request(&target)
}

/// GET the request target `target` (a path and a query string, sent as given); the status, the
/// content type and the body.
pub fn request(target: &str) -> (u16, String, String) {
    request_with("GET", target)
}

/// Sends `method target` with an empty body; the status, the content type and the body.
pub fn request_with(method: &str, target: &str) -> (u16, String, String) {
    let mut s = TcpStream::connect(server()).unwrap();
    s.set_read_timeout(Some(std::time::Duration::from_secs(30)))
        .unwrap();
    write!(
        s,
        "{method} {target} HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut buf = Vec::new();
    s.read_to_end(&mut buf).unwrap();
    let text = String::from_utf8_lossy(&buf).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").expect("an HTTP answer");
    let status: u16 = head.split(' ').nth(1).unwrap().parse().unwrap();
    let ctype = head
        .lines()
        .find_map(|l| {
            l.to_ascii_lowercase()
                .strip_prefix("content-type: ")
                .map(|v| v.to_string())
        })
        .unwrap_or_default();
    (status, ctype, body.to_string())
}
