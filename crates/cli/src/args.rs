//! Argument types shared by several commands (a game with its position, the output and budget flags).

use clap::Args;
use nimlab_core::{Budget, Error};

#[derive(Args, Debug)]
pub struct Target {
    /// Game name, e.g. CN(7,4), SCN(6,3), nim, moore(2); or a sum with positions in brackets,
    /// e.g. "CN(7,4)[1,2,3,4,5,6,7] + ET(2)[31,54] + nim[5]" (then no POSITION).
    pub game: String,
    /// Position, e.g. 1,7,5,6,2,3,6.
    #[arg(allow_hyphen_values = true)]
    pub position: Option<String>,
}

impl Target {
    /// The position text; a missing position is an error unless the game is a sum.
    pub fn position_text(&self) -> Result<&str, Error> {
        match &self.position {
            Some(p) if nimlab_games::is_sum(&self.game) => Err(Error::BadPosition(format!(
                "a sum carries its positions in brackets; drop the extra argument '{p}'"
            ))),
            Some(p) => Ok(p),
            None => Err(Error::BadPosition(
                "the following required arguments were not provided: <POSITION>".into(),
            )),
        }
    }
}

#[derive(Args, Debug)]
pub struct Common {
    /// Print one JSON object on stdout.
    #[arg(long)]
    pub json: bool,
    /// Most estimated option visits a search may make before it is refused.
    #[arg(long, default_value_t = Budget::default().limit, value_name = "N")]
    pub limit: f64,
}
