//! A scripted game that would never end is refused by the analysis every front end shares (the
//! command line, Python, the web server), in one line naming the move, under every kind of question
//! and both conventions; the web's game loader refuses scripts altogether.

use nimlab_analysis::{Analyzer, Limits, StoreHandle, Want};
use nimlab_core::Play;

#[test]
fn scripts_that_do_not_descend_are_refused_by_the_analysis() {
    let dir = std::env::temp_dir().join(format!("nimlab-analysis-descent-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, text) in [
        ("self.rhai", "fn options(p) { [p] }"),
        (
            "cycle.rhai",
            "fn options(p) { if p[0] == 0 { [[2]] } else { [[p[0] - 1]] } }",
        ),
        ("grows.rhai", "fn options(p) { [[p[0] + 1]] }"),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let path = path.to_str().unwrap();
        let game = nimlab_games::parse_game(path).unwrap();
        for limits in [Limits::CLI, Limits::WEB] {
            let an = Analyzer::new(StoreHandle::none(), limits);
            for play in [Play::Normal, Play::Misere] {
                for want in [
                    Want::outcome(),
                    Want::grundy(),
                    Want::moves(),
                    Want::options(),
                ] {
                    let e = an
                        .analyse(game.as_ref(), &[2], play, want)
                        .err()
                        .unwrap_or_else(|| panic!("{name}: answered"))
                        .to_string();
                    assert!(e.contains("does not descend"), "{name}: {e}");
                    assert!(e.contains(") -> ("), "{name}: {e}");
                    assert!(!e.contains('\n'), "{name}: {e}");
                }
            }
        }
        // The web page and its API play built-in games only.
        assert!(nimlab_analysis::play::load_game(path).is_err());
    }
    let _ = std::fs::remove_dir_all(&dir);
}
