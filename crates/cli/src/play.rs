//! `nimlab play`: a game against the perfect opponent in the terminal (or fed through a pipe), and
//! `nimlab serve`, the same on a web page.
//!
//! A move is typed as the position after it, in the game's syntax (`0,2,3,4,5`); for Circular Nim and
//! Shrinking Circular Nim also as `w S a,b,c`: the window of k stacks starting at stack S (1-based,
//! clockwise) lowered to the heights a, b, c. Commands: `hint`, `undo`, `new`, `explain`, `show`,
//! `help`, `quit`; `undo`, `new` and `quit` also once the game is over. Values, the computer's move and legality come from `nimlab_analysis::play`, shared with
//! the web page.

use clap::{Args, ValueEnum};
use nimlab_analysis::play as engine;
use nimlab_analysis::{Analyzer, Limits, StoreHandle};
use nimlab_core::Rng;
use nimlab_core::{Error, Game, Outcome, Play, Pos};
use std::io::{BufRead, Write};

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Side {
    /// The computer makes the first move.
    First,
    /// You make the first move.
    Second,
}

#[derive(Args, Debug)]
pub struct PlayArgs {
    /// Game name, e.g. CN(5,3), SCN(6,3), nim, moore(2), ET(3).
    pub game: String,
    /// Start position, e.g. 1,2,3,4,5 (a random position of moderate size when omitted).
    #[arg(allow_hyphen_values = true)]
    pub position: Option<String>,
    /// Misère play: the player who makes the last move loses.
    #[arg(long)]
    pub misere: bool,
    /// Whether the computer moves first or second.
    #[arg(long, value_enum, default_value_t = Side::Second)]
    pub computer: Side,
    /// Seed of the random start position (for a repeatable game).
    #[arg(long)]
    pub seed: Option<u64>,
    #[command(flatten)]
    pub store: crate::store_cmd::StoreArgs,
}

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Port to listen on (0: any free port; the address is printed).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1")]
    pub bind: String,
    /// Computations about one position or sum (outcome, moves, hints, the computer's move) that
    /// run at once; more wait for a free slot, then are answered "busy".
    #[arg(long, value_name = "N", default_value_t = nimlab_web::Capacity::default().quick, value_parser = slots)]
    pub quick_slots: usize,
    /// Research computations (slices, sequences, patterns, discover, prove) that run at once, apart
    /// from the quick ones so that they never make those wait.
    #[arg(long, value_name = "N", default_value_t = nimlab_web::Capacity::default().research, value_parser = slots)]
    pub research_slots: usize,
    #[command(flatten)]
    pub store: crate::store_cmd::StoreArgs,
}

/// Most computation slots of one pool (each a thread while it computes).
const MOST_SLOTS: usize = 64;

/// A number of computation slots: 1 to [`MOST_SLOTS`].
fn slots(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(0) => Err("a server needs at least 1 slot of each kind".into()),
        Ok(n) if n <= MOST_SLOTS => Ok(n),
        Ok(n) => Err(format!("{n} slots: at most {MOST_SLOTS}")),
        Err(_) => Err(format!(
            "'{text}' is not a number of slots (1 to {MOST_SLOTS})"
        )),
    }
}

/// `nimlab serve`.
pub fn serve(args: &ServeArgs) -> Result<(), Error> {
    let store = StoreHandle::at(args.store.path());
    let capacity = nimlab_web::Capacity {
        quick: args.quick_slots,
        research: args.research_slots,
        ..nimlab_web::Capacity::default()
    };
    nimlab_web::run(&args.bind, args.port, store, capacity).map_err(|e| {
        Error::Unsupported(format!("cannot serve on {}:{}: {e}", args.bind, args.port))
    })
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mover {
    Start,
    You,
    Computer,
}

struct Match {
    game: Box<dyn Game>,
    play: Play,
    computer_first: bool,
    an: Analyzer,
    history: Vec<(Pos, Mover)>,
}

impl Match {
    fn pos(&self) -> &Pos {
        &self
            .history
            .last()
            .expect("history starts with the start position")
            .0
    }
    fn computer_to_move(&self) -> bool {
        (self.history.len() - 1).is_multiple_of(2) == self.computer_first
    }
    fn show(&self, p: &[u64]) -> String {
        self.game.format_position(p)
    }
    /// The position and its value in one line.
    fn describe(&self, p: &[u64]) -> String {
        match engine::value(&self.an, self.game.as_ref(), p, self.play) {
            Ok(a) => {
                let mut s = format!("{} — {}", self.show(p), a.outcome);
                if a.terminal {
                    s.push_str(": no move is left");
                } else {
                    s.push_str(&format!(": {}", a.outcome.in_words()));
                }
                if let Some(g) = a.grundy {
                    s.push_str(&format!(", Grundy value {g}"));
                }
                s
            }
            Err(e) => format!("{} — value unknown: {e}", self.show(p)),
        }
    }
    fn help(&self) -> String {
        let example = self
            .game
            .options(self.pos())
            .unwrap_or_default()
            .into_iter()
            .next()
            .map(|q| self.show(&q))
            .unwrap_or_else(|| self.show(self.pos()));
        let mut s = format!("Type a move as the position after it, e.g. {example}");
        let window = self
            .game
            .move_structure(self.pos().len())
            .map(|ms| ms.faces())
            .and_then(|f| f.iter().map(|w| w.len()).max());
        if let (nimlab_core::Layout::Circle, Some(k)) = (self.game.layout(), window) {
            s.push_str(&format!(
                ", or as `w S a,b,...`: the window of {k} stacks starting at stack S (1-based, clockwise) lowered to the given heights"
            ));
        }
        s.push_str(".\nCommands: hint (the winning moves), undo (take back your last move, also after the game ends), new (a new game), explain (the theory behind the value), show, help, quit.");
        s
    }
}

/// `nimlab play`.
pub fn run(args: &PlayArgs) -> Result<(), Error> {
    // A script is played from the position given (it has no random starts); the web page offers
    // built-in games only, since its players name no files on the server.
    let game = if args.game.trim().ends_with(".rhai") {
        if args.position.is_none() {
            return Err(Error::BadPosition(format!(
                "a scripted game has no random start: give one, e.g. `nimlab play {} 5`",
                args.game.trim()
            )));
        }
        nimlab_games::parse_game(&args.game)?
    } else {
        engine::load_game(&args.game)?
    };
    let play = Play::from_misere(args.misere);
    let an = Analyzer::new(StoreHandle::at(args.store.path()), Limits::TERMINAL);
    let mut rng = args
        .seed
        .map(Rng::new)
        .unwrap_or_else(engine::rng_from_time);
    // `new` starts again from the given position, or from a new random one.
    let new_start = |rng: &mut Rng, game: &dyn Game, an: &Analyzer| -> Result<Pos, Error> {
        match &args.position {
            Some(t) => engine::load_position(game, t),
            None => engine::random_position(an, game, rng),
        }
    };
    let start = new_start(&mut rng, game.as_ref(), &an)?;
    // A position nobody can value is refused up front rather than mid-game.
    engine::value(&an, game.as_ref(), &start, play)?;
    let mut m = Match {
        game,
        play,
        computer_first: args.computer == Side::First,
        an,
        history: vec![(start, Mover::Start)],
    };
    println!(
        "{}, {} play. {}",
        m.game.id(),
        play,
        if m.computer_first {
            "The computer moves first."
        } else {
            "You move first."
        }
    );
    println!("{}", m.help());
    println!("position: {}", m.describe(m.pos()));
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let mut announced = false;
    loop {
        let p = m.pos().clone();
        let over = m.game.is_terminal(&p)?;
        if over && !announced {
            announce(&m);
            println!("Type undo to take back your last move, new for a new game, or quit.");
            announced = true;
        }
        if !over && m.computer_to_move() {
            let c = engine::computer_move(&m.an, m.game.as_ref(), &p, play)?;
            println!("computer: {} -> {}  ({})", m.show(&p), m.show(&c.to), c.why);
            m.history.push((c.to, Mover::Computer));
            println!("position: {}", m.describe(m.pos()));
            continue;
        }
        print!("{}", if over { "game over> " } else { "your move> " });
        let _ = std::io::stdout().flush();
        let line = match lines.next() {
            Some(Ok(l)) => l,
            Some(Err(e)) => return Err(Error::Unsupported(format!("cannot read input: {e}"))),
            None => {
                println!();
                if !over {
                    println!("(end of input: game left unfinished)");
                }
                return Ok(());
            }
        };
        let cmd = line.trim();
        match cmd.to_ascii_lowercase().as_str() {
            "" => {}
            "quit" | "q" | "exit" => {
                println!("bye");
                return Ok(());
            }
            "help" | "?" => println!("{}", m.help()),
            "show" | "position" => println!("position: {}", m.describe(&p)),
            "new" => {
                let start = new_start(&mut rng, m.game.as_ref(), &m.an)?;
                m.history = vec![(start, Mover::Start)];
                announced = false;
                println!("new game; position: {}", m.describe(m.pos()));
            }
            "undo" => match m.history.iter().rposition(|(_, who)| *who == Mover::You) {
                Some(i) => {
                    m.history.truncate(i);
                    announced = false;
                    println!("undone; position: {}", m.describe(m.pos()));
                }
                None => println!("nothing of yours to undo"),
            },
            _ if over => println!("the game is over: type undo, new or quit"),
            "hint" => match engine::hint(&m.an, m.game.as_ref(), &p, play) {
                Ok(a) => println!("hint: {}", engine::hint_text(&a, &|q| m.show(q))),
                Err(e) => println!("hint: {e}"),
            },
            "explain" => explain(&m, &p),
            _ => match engine::parse_move(&m.an, m.game.as_ref(), &p, cmd) {
                Ok(q) => {
                    let verdict = match engine::value(&m.an, m.game.as_ref(), &q, play) {
                        Ok(a) if a.outcome == Outcome::P => " (a winning move)",
                        Ok(_) => " (a losing move: the computer can now win)",
                        Err(_) => "",
                    };
                    println!("you: {} -> {}{verdict}", m.show(&p), m.show(&q));
                    m.history.push((q, Mover::You));
                    println!("position: {}", m.describe(m.pos()));
                }
                Err(e) => println!("not a move: {e} (type help for the notation)"),
            },
        }
    }
}

/// `explain`: why the current position is P or N, from the analysis library (the family and
/// relations of the result that decides it, or the winning move found by search).
fn explain(m: &Match, p: &[u64]) {
    match engine::explain(&m.an, m.game.as_ref(), p, m.play) {
        Ok(e) => {
            println!("why: {}", e.reason);
            if let Some(f) = &e.family {
                println!("family: {f}");
            }
            if let (Some(st), Some(src)) = (&e.statement, &e.source) {
                println!("result: {} — {st}", e.method.id());
                println!("source: {src}");
            }
        }
        Err(e) => println!("explain: {e}"),
    }
}

fn announce(m: &Match) {
    let last = m.history.last().map(|(_, w)| *w).unwrap_or(Mover::Start);
    let last_mover_wins = m.play == Play::Normal;
    let text = match last {
        Mover::Start => "The game is over before it started: no move is possible.",
        Mover::Computer if last_mover_wins => "The computer wins.",
        Mover::You if !last_mover_wins => "The computer wins.",
        _ => "You win!",
    };
    println!("{text}");
}
