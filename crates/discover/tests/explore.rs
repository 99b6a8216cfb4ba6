//! Manual exploration (ignored): `GAMES='CN(4,2);CN(5,2)' cargo test -p nimlab-discover --test explore -- --ignored --nocapture`.
use std::sync::Arc;

#[test]
#[ignore]
fn explore() {
    let games = std::env::var("GAMES").unwrap_or("CN(4,2)".into());
    for g in games.split(';') {
        let opts = nimlab_discover::Options {
            progress: Some(Arc::new(|s: &str| eprintln!("  {s}"))),
            max: std::env::var("MAX").ok().map(|m| m.parse().unwrap()),
            ..Default::default()
        };
        let d = nimlab_discover::discover(g, &opts).unwrap();
        let mut j = d.to_json(None);
        j["proof"] = serde_json::Value::Null;
        println!("{}", serde_json::to_string(&j).unwrap());
    }
}
