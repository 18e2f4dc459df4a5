//! Staged move picking: the moves of a node in the order most likely to cut off early.
//!
//! First the transposition table's move; then captures and promotions that do not lose
//! material (by SEE), the most valuable victim first, adjusted by capture history; then the
//! two killers and the counter-move; then quiet moves by history (own and continuation); last
//! the captures that lose material. Captures and promotions are generated first and quiet
//! moves only when the picker gets to them, so a node that cuts off on a capture (about two
//! nodes in five) neither generates nor scores its quiet moves. In quiescence only the first
//! two stages run (losing captures are pruned), or every move when the side to move is in
//! check.

use super::history::{History, PieceTo};
use super::see::{see_ge, SeeValues};
use crate::movegen::MoveList;
use crate::position::{Move, MoveKind, Position};
use crate::rules::Rules;

#[derive(Clone, Copy, PartialEq, Eq, Debug, PartialOrd, Ord)]
enum Stage {
    TtMove,
    ScoreNoisy,
    GoodNoisy,
    GenerateQuiet,
    Killer0,
    Killer1,
    Counter,
    ScoreQuiet,
    Quiet,
    BadNoisy,
    Done,
}

/// Which moves a picker hands out.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum PickMode {
    /// Every move (main search).
    All,
    /// Captures and promotions only; losing ones are skipped (quiescence).
    Noisy,
}

/// What the picker needs from the search at one node.
pub struct PickContext<'a> {
    pub rules: &'a Rules,
    pub see: &'a SeeValues,
    pub history: &'a History,
    pub pos: &'a Position,
    /// Continuation keys of the moves one and two plies before.
    pub prev: [Option<PieceTo>; 2],
}

/// Is the move a capture or a promotion (what quiescence searches)?
pub fn is_noisy(pos: &Position, m: Move) -> bool {
    m.promo.is_some()
        || m.kind == MoveKind::EnPassant
        || (matches!(m.kind, MoveKind::Normal | MoveKind::DoubleStep)
            && pos.piece_at(m.to).is_some())
}

/// The move picker of one node. It owns its move buffers (taken from the search's pool and
/// given back by [`MovePicker::into_buffers`]), so it does not borrow the search.
pub struct MovePicker {
    stage: Stage,
    mode: PickMode,
    tt_move: Option<Move>,
    killers: [Option<Move>; 2],
    counter: Option<Move>,
    /// Noisy moves in `[0, noisy_end)`, quiet ones after; scored in place.
    moves: Vec<(Move, i32)>,
    bad: Vec<Move>,
    noisy_end: usize,
    next: usize,
    bad_next: usize,
    evasions: bool,
}

impl MovePicker {
    /// A picker over the pseudo-legal moves of `cx.pos`. `evasions`: in check, so quiescence
    /// must look at every move. Nothing is generated yet: the table move, when it is
    /// pseudo-legal here, comes first, and a cut-off on it saves the generation.
    pub fn new(
        cx: &PickContext,
        buffers: (Vec<(Move, i32)>, Vec<Move>),
        mode: PickMode,
        tt_move: Option<Move>,
        killers: [Option<Move>; 2],
        evasions: bool,
    ) -> MovePicker {
        let (mut moves, mut bad) = buffers;
        moves.clear();
        bad.clear();
        let mode = if evasions { PickMode::All } else { mode };
        let tt_move = tt_move.filter(|&m| {
            (mode == PickMode::All || is_noisy(cx.pos, m)) && cx.pos.is_pseudo_legal(cx.rules, m)
        });
        MovePicker {
            stage: Stage::TtMove,
            mode,
            tt_move,
            killers,
            counter: cx.history.counter_move(cx.prev[0]),
            moves,
            bad,
            noisy_end: 0,
            next: 0,
            bad_next: 0,
            evasions,
        }
    }

    /// Generates the node's captures and promotions.
    fn generate_noisy(&mut self, cx: &PickContext) {
        let mut list = MoveList::new();
        cx.pos.pseudo_noisy_moves(cx.rules, &mut list);
        let noisy = list.iter().filter(|&&m| is_noisy(cx.pos, m));
        self.moves.extend(noisy.map(|&m| (m, 0)));
        self.noisy_end = self.moves.len();
    }

    /// Generates the node's quiet moves after the noisy ones, and keeps the killers and the
    /// counter-move (read when the node began) only if they are among them.
    fn generate_quiet(&mut self, cx: &PickContext) {
        let mut list = MoveList::new();
        cx.pos.pseudo_quiet_moves(cx.rules, &mut list);
        let quiet = list.iter().filter(|&&m| !is_noisy(cx.pos, m));
        self.moves.extend(quiet.map(|&m| (m, 0)));
        let quiets = &self.moves[self.noisy_end..];
        let in_list = |m: Option<Move>| m.filter(|m| quiets.iter().any(|(x, _)| x == m));
        self.killers = [in_list(self.killers[0]), in_list(self.killers[1])];
        self.counter = in_list(self.counter);
    }

    /// Gives the buffers back for reuse.
    pub fn into_buffers(self) -> (Vec<(Move, i32)>, Vec<Move>) {
        (self.moves, self.bad)
    }

    /// The next move, or None when every stage is done.
    pub fn next(&mut self, cx: &PickContext) -> Option<Move> {
        loop {
            if let Some(m) = self.step(cx) {
                return Some(m);
            }
            if self.stage == Stage::Done {
                return None;
            }
        }
    }

    /// Runs the current stage: a move, or None after moving to the next stage.
    fn step(&mut self, cx: &PickContext) -> Option<Move> {
        match self.stage {
            Stage::TtMove => {
                self.stage = Stage::ScoreNoisy;
                self.tt_move
            }
            Stage::ScoreNoisy => {
                self.generate_noisy(cx);
                self.score_noisy(cx);
                self.stage = Stage::GoodNoisy;
                None
            }
            Stage::GoodNoisy => self.good_noisy(cx),
            Stage::GenerateQuiet => {
                self.generate_quiet(cx);
                self.stage = Stage::Killer0;
                None
            }
            Stage::Killer0 | Stage::Killer1 | Stage::Counter => self.refutation(cx),
            Stage::ScoreQuiet => {
                self.score_quiets(cx);
                self.next = self.noisy_end;
                self.stage = Stage::Quiet;
                None
            }
            Stage::Quiet => self.quiet(),
            Stage::BadNoisy => self.bad_noisy(),
            Stage::Done => None,
        }
    }

    fn score_noisy(&mut self, cx: &PickContext) {
        for (m, s) in &mut self.moves[..self.noisy_end] {
            let victim = cx.see.captured(cx.rules, cx.pos, *m);
            let promo = m.promo.map_or(0, |k| cx.see.value[k.index()]);
            let kind = cx.pos.piece_at(m.to).map_or(0, |p| p.kind.index());
            let hist = cx
                .history
                .capture_score(cx.history.piece_to(cx.pos, *m), kind);
            *s = 16 * (victim + promo) + hist / 16;
        }
    }

    fn good_noisy(&mut self, cx: &PickContext) -> Option<Move> {
        while self.next < self.noisy_end {
            let m = pick_best(&mut self.moves[..self.noisy_end], self.next);
            self.next += 1;
            if Some(m) == self.tt_move {
                continue;
            }
            // A capture that loses material waits for the end (or, in quiescence, is not
            // searched at all), unless the side to move is in check.
            let threshold = -self.moves[self.next - 1].1 / 128;
            if self.evasions || see_ge(cx.rules, cx.see, cx.pos, m, threshold.min(0)) {
                return Some(m);
            }
            self.bad.push(m);
        }
        self.stage = if self.mode == PickMode::All {
            Stage::GenerateQuiet
        } else {
            Stage::Done
        };
        None
    }

    fn refutation(&mut self, cx: &PickContext) -> Option<Move> {
        let (m, next) = match self.stage {
            Stage::Killer0 => (self.killers[0], Stage::Killer1),
            Stage::Killer1 => (self.killers[1], Stage::Counter),
            _ => (self.counter, Stage::ScoreQuiet),
        };
        self.stage = next;
        let m = m?;
        let repeat = Some(m) == self.tt_move
            || (next == Stage::Counter && Some(m) == self.killers[0])
            || (next == Stage::ScoreQuiet && self.killers.contains(&Some(m)));
        if repeat || is_noisy(cx.pos, m) {
            return None;
        }
        Some(m)
    }

    fn score_quiets(&mut self, cx: &PickContext) {
        let us = cx.pos.side_to_move();
        let (moves, end) = (&mut self.moves, self.noisy_end);
        for (m, s) in &mut moves[end..] {
            let pt = cx.history.piece_to(cx.pos, *m);
            *s = cx.history.quiet_total(us, *m, pt, &cx.prev);
        }
    }

    fn quiet(&mut self) -> Option<Move> {
        while self.next < self.moves.len() {
            let i = self.next - self.noisy_end;
            let quiets = &mut self.moves[self.noisy_end..];
            // The first few by selection (a cut-off usually comes early); a node that gets
            // further sorts the rest once instead of scanning them for every move.
            let m = if i < QUIETS_BY_SELECTION {
                pick_best(quiets, i)
            } else {
                if i == QUIETS_BY_SELECTION {
                    quiets[i..].sort_by_key(|&(_, s)| std::cmp::Reverse(s));
                }
                quiets[i].0
            };
            self.next += 1;
            if Some(m) == self.tt_move || self.killers.contains(&Some(m)) || Some(m) == self.counter
            {
                continue;
            }
            return Some(m);
        }
        self.stage = Stage::BadNoisy;
        None
    }

    fn bad_noisy(&mut self) -> Option<Move> {
        if self.bad_next < self.bad.len() {
            self.bad_next += 1;
            return Some(self.bad[self.bad_next - 1]);
        }
        self.stage = Stage::Done;
        None
    }
}

/// Quiet moves handed out by selection before the rest are sorted.
const QUIETS_BY_SELECTION: usize = 3;

/// Swaps the best-scored move of `moves[i..]` into place `i` and returns it.
fn pick_best(moves: &mut [(Move, i32)], i: usize) -> Move {
    let mut best = i;
    for j in i + 1..moves.len() {
        if moves[j].1 > moves[best].1 {
            best = j;
        }
    }
    moves.swap(i, best);
    moves[i].0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog;

    #[test]
    fn every_move_comes_once_with_winning_captures_first() {
        let rules = catalog::load_rules("chess").unwrap();
        // Qxd5 loses the queen to the e6 pawn; Rxa7 wins a free pawn.
        let fen = "4k3/p7/4p3/3p4/8/8/8/R2QK3 w - - 0 1";
        let pos = Position::from_fen(&rules, fen).unwrap();
        let see = SeeValues::new(&rules);
        let history = History::new(&rules);
        let cx = PickContext {
            rules: &rules,
            see: &see,
            history: &history,
            pos: &pos,
            prev: [None; 2],
        };
        let killer = pos
            .legal_moves(&rules)
            .iter()
            .copied()
            .find(|m| m.uci(&rules) == "e1f2");
        let mut p = MovePicker::new(
            &cx,
            Default::default(),
            PickMode::All,
            None,
            [killer, None],
            false,
        );
        let mut seen = Vec::new();
        while let Some(m) = p.next(&cx) {
            seen.push(m.uci(&rules));
        }
        let mut all: Vec<String> = {
            let mut l = MoveList::new();
            pos.pseudo_moves(&rules, &mut l);
            l.iter().map(|m| m.uci(&rules)).collect()
        };
        assert_eq!(seen[0], "a1a7");
        assert_eq!(seen[1], "e1f2");
        assert_eq!(seen.last().unwrap(), "d1d5");
        seen.sort();
        all.sort();
        assert_eq!(seen, all);
    }
}
