//! Printing: JSON objects, text tables, the games catalogue, and atomic file output.

use nimlab_core::Error;
use serde_json::Value;

pub fn print_json(v: &Value) {
    println!("{}", serde_json::to_string(v).unwrap());
}

pub fn games(as_json: bool) -> Result<(), Error> {
    let cat = nimlab_games::catalogue();
    if as_json {
        println!(
            "{}",
            serde_json::to_string_pretty(&nimlab_analysis::json::catalogue()).unwrap()
        );
    } else {
        for e in cat {
            println!("{} — {}", e.name, e.title);
            println!("  parameters: {}", e.parameters);
            println!("  position:   {}", e.position);
            println!("  rules:      {}", e.rules);
            println!("  source:     {}", e.source);
            println!("  example:    {}", e.example);
            println!();
        }
        println!(
            "Every game is also played misère with --misere (the player who moves last loses)."
        );
    }
    Ok(())
}

/// `nimlab theory [GAME]`: every result, or those covering GAME.
pub fn theory(game: Option<&str>, as_json: bool) -> Result<(), Error> {
    let filter = match game {
        Some(name) => Some(nimlab_games::parse_game(name)?),
        None => None,
    };
    let entries: Vec<_> = nimlab_theory::all()
        .iter()
        .filter(|t| filter.as_ref().is_none_or(|g| t.covers(g.as_ref())))
        .collect();
    // For Empty & Redistribute, the objects of Proposition 8 (f(k), R(k), S(k), x(n)).
    let er = filter
        .as_ref()
        .and_then(|g| nimlab_analysis::er_summary_of(g.as_ref()));
    if as_json {
        let v = nimlab_analysis::json::theory(filter.as_deref());
        println!("{}", serde_json::to_string_pretty(&v).unwrap());
    } else {
        if let Some(e) = &er {
            println!("{e}");
        }
        if entries.is_empty() {
            println!(
                "no proven result covers {}; nimlab answers it by exhaustive search",
                filter.map(|g| g.id()).unwrap_or_default()
            );
        }
        for t in entries {
            println!("{} — {} ({} play)", t.id(), t.games(), t.play());
            println!("  {}", t.statement());
            println!("  source: {}", t.source());
            println!();
        }
    }
    Ok(())
}

/// Writes stdout or, with a path, PATH.partial renamed to PATH once complete (so a file that exists is
/// whole). Returns what `write` returned; `None` for stdout, where a write error means the reader went
/// away (a closed pipe ends the process through SIGPIPE on Unix).
pub fn write_out<T>(
    path: Option<&std::path::Path>,
    write: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<T>,
) -> Result<Option<T>, Error> {
    use std::io::{BufWriter, Write};
    let Some(path) = path else {
        let mut out = BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
        let _ = write(&mut out);
        let _ = out.flush();
        return Ok(None);
    };
    let io = |p: &std::path::Path| {
        let p = p.display().to_string();
        move |e: std::io::Error| Error::io(format!("cannot write {p}"), e)
    };
    let tmp = path.with_extension("partial");
    let f = std::fs::File::create(&tmp).map_err(io(&tmp))?;
    let mut out = BufWriter::with_capacity(1 << 16, f);
    let r = write(&mut out).map_err(io(&tmp))?;
    out.flush().map_err(io(&tmp))?;
    drop(out);
    std::fs::rename(&tmp, path).map_err(io(path))?;
    Ok(Some(r))
}
