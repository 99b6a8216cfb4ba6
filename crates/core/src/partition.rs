//! The checks of a conjectured P-set: the three conditions of the partition theorem (docs/rules.md,
//! "The partition theorem and verify"), shared by the bounded check (`nimlab_research::verify`) and
//! the proofs for every stack size (`nimlab_prove`).
//!
//! A set A is the P-set (normal play) when (I) no move leads from A to A, (II) every position outside
//! A has a move into A, and (III) every terminal position is in A (misère play: (III) no terminal
//! position is in A, and (II) concerns non-terminal positions).

/// One check of a conjectured P-set: a condition of the partition theorem, or (for results that
/// decide only some positions, which the theorem cannot check) the comparison with exhaustive
/// search. Proofs ([`Condition::THEOREM`]) never use [`Condition::Search`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Condition {
    /// A move from a member to a member.
    I,
    /// A non-member (non-terminal in misère play) without a move into the set.
    II,
    /// A terminal position outside the set (normal play) or inside it (misère play).
    III,
    /// A partial result's verdict that search contradicts.
    Search,
    /// For a set claimed to lie inside the P-set (not to be all of it): a move from a member to a
    /// position with no move back into the set. When no such move exists, every member is a
    /// P-position (docs/rules.md, "A set inside the P-set").
    Closure,
}

impl Condition {
    /// The theorem's three conditions, in order.
    pub const THEOREM: [Condition; 3] = [Condition::I, Condition::II, Condition::III];

    pub fn name(self) -> &'static str {
        match self {
            Condition::I => "I",
            Condition::II => "II",
            Condition::III => "III",
            Condition::Search => "search",
            Condition::Closure => "C",
        }
    }

    /// What a violation of the check is, in words.
    pub fn describe(self) -> &'static str {
        match self {
            Condition::I => "(I) a move leads from a member of the set to another member",
            Condition::II => "(II) a position outside the set has no move into it",
            Condition::III => "(III) a terminal position is on the wrong side of the set",
            Condition::Search => "the result's verdict differs from exhaustive search",
            Condition::Closure => {
                "(C) a move leads from a member of the set to a position with no move back into it"
            }
        }
    }
}
