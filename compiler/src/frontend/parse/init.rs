//! Initializers (C11 6.7.9): expressions, braced lists, designators
//! (`.field`, `[index]`), GNU array ranges `[lo ... hi]` and the obsolete GNU
//! `field: value` form.

use super::super::ast::*;
use super::super::source::PResult;
use super::super::token::{Punct, TokenKind};
use super::Parser;

impl Parser {
    /// initializer = assignment-expression | "{" initializer-list ","? "}"
    pub(super) fn initializer(&mut self) -> PResult<Initializer> {
        if self.is(Punct::LBrace) {
            let start = self.span();
            let items = self.init_list()?;
            return Ok(Initializer::List(items, self.span_from(start)));
        }
        Ok(Initializer::Expr(self.assign()?))
    }

    /// initializer-list = (designation? initializer) ("," designation? initializer)*
    /// designation      = designator+ "=" | identifier ":"
    /// designator       = "[" constant-expression ("..." constant-expression)? "]" | "." identifier
    pub(super) fn init_list(&mut self) -> PResult<Vec<InitItem>> {
        self.enter()?;
        let r = self.init_list_inner();
        self.leave();
        r
    }

    fn init_list_inner(&mut self) -> PResult<Vec<InitItem>> {
        self.expect(Punct::LBrace)?;
        let mark = self.init_items.len();
        let r = self.init_items_until_brace();
        let items = self.init_items.drain(mark..).collect();
        r.map(|()| items)
    }

    /// The items of a list up to its `}`, pushed on `init_items`.
    fn init_items_until_brace(&mut self) -> PResult<()> {
        while !self.eat(Punct::RBrace) {
            let mut designators = Vec::new();
            if self.tok().kind == TokenKind::Ident && self.peek_at(1).is_punct(Punct::Colon) {
                let (n, s) = self.ident()?;
                self.advance();
                designators.push(Designator::Field(n, s));
            } else {
                loop {
                    if self.eat(Punct::LBracket) {
                        let lo = self.conditional()?;
                        if self.eat(Punct::Ellipsis) {
                            let hi = self.conditional()?;
                            designators.push(Designator::Range(Box::new(lo), Box::new(hi)));
                        } else {
                            designators.push(Designator::Index(lo));
                        }
                        self.expect(Punct::RBracket)?;
                    } else if self.is(Punct::Dot) && self.peek_at(1).kind == TokenKind::Ident {
                        self.advance();
                        let (n, s) = self.ident()?;
                        designators.push(Designator::Field(n, s));
                    } else {
                        break;
                    }
                }
                if !designators.is_empty() {
                    self.expect(Punct::Assign)?;
                }
            }
            let init = self.initializer()?;
            self.init_items.push(InitItem { designators, init });
            if !self.eat(Punct::Comma) {
                self.expect(Punct::RBrace)?;
                break;
            }
        }
        Ok(())
    }
}
