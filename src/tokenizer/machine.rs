//! The scalar state machine (stub, being written).
use std::marker::PhantomData;

use super::{Config, ErrorPolicy};
use crate::error::ParseError;
use crate::state::State;
use crate::token::Token;

pub(crate) struct Machine<E> {
    state: State,
    errors: Vec<ParseError>,
    _e: PhantomData<E>,
}

impl<E: ErrorPolicy> Machine<E> {
    pub(crate) fn new(config: &Config) -> Self {
        Machine { state: config.initial_state, errors: Vec::new(), _e: PhantomData }
    }
    pub(crate) fn next_token<'t>(&'t mut self, _input: &'t [u8], _base: usize, _eof: bool) -> Option<Token<'t>> {
        Some(Token::Eof)
    }
    pub(crate) fn errors(&self) -> &[ParseError] { &self.errors }
    pub(crate) fn set_state(&mut self, s: State) { self.state = s }
    pub(crate) fn set_last_start_tag(&mut self, _n: Option<&str>) {}
    pub(crate) fn set_cdata_allowed(&mut self, _a: bool) {}
    pub(crate) fn state(&self) -> State { self.state }
}
