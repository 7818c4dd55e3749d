//! Statements (C11 6.8) and GNU inline assembly (`asm volatile goto inline`
//! with outputs, inputs, clobbers and labels; named operands `[name]`),
//! GNU case ranges, `goto *expr`, local labels (`__label__`) and attributes on
//! labels and null statements.

use super::super::ast::*;
use super::super::source::{Diagnostic, PResult};
use super::super::token::{Keyword, Punct, TokenKind};
use super::Parser;
use std::sync::Arc;

impl Parser {
    /// compound-statement = "{" block-item* "}"    (6.8.2; opens a scope)
    pub(super) fn compound_statement(&mut self) -> PResult<Block> {
        self.push_scope();
        let r = self.compound_body();
        self.pop_scope();
        r
    }

    /// The braces and items of a block, in the current scope (a function body
    /// shares its scope with the parameters).
    /// block-item = declaration | statement | "__label__" identifier-list ";"
    pub(super) fn compound_body(&mut self) -> PResult<Block> {
        let start = self.expect(Punct::LBrace)?;
        let mark = self.block_items.len();
        let r = self.block_items_until_brace();
        let items = self.block_items.drain(mark..).collect();
        r?;
        Ok(Block {
            items,
            span: self.span_from(start),
        })
    }

    /// The items of a block up to its `}`, pushed on `block_items`.
    fn block_items_until_brace(&mut self) -> PResult<()> {
        loop {
            for (text, span) in self.take_pragmas() {
                self.block_items.push(BlockItem::Pragma(text, span));
            }
            if self.eat(Punct::RBrace) {
                return Ok(());
            }
            if self.at_eof() {
                return Err(self.error_here("expected '}'"));
            }
            if self.eat_kw(Keyword::Label) {
                let mut names = Vec::new();
                loop {
                    names.push(self.ident()?.0);
                    if !self.eat(Punct::Comma) {
                        break;
                    }
                }
                self.expect(Punct::Semi)?;
                self.block_items.push(BlockItem::LocalLabels(names));
                continue;
            }
            let item = if self.is_decl_start()
                && !(self.tok().kind == TokenKind::Ident && self.peek_at(1).is_punct(Punct::Colon))
            {
                BlockItem::Decl(self.declaration()?)
            } else {
                BlockItem::Stmt(self.statement()?)
            };
            self.block_items.push(item);
        }
    }

    /// statement = labeled-statement | compound-statement | expression-statement
    ///           | selection-statement | iteration-statement | jump-statement | asm-statement   (6.8)
    pub(super) fn statement(&mut self) -> PResult<Stmt> {
        self.enter()?;
        let r = self.statement_inner();
        self.leave();
        r
    }

    fn statement_inner(&mut self) -> PResult<Stmt> {
        let start = self.span();
        let kind = match self.tok().kind {
            // labeled-statement = identifier ":" attribute* statement      (6.8.1)
            TokenKind::Ident if self.peek_at(1).is_punct(Punct::Colon) => {
                let name: Arc<str> = self.name_here();
                self.advance();
                self.advance();
                let mut attrs = Vec::new();
                self.attributes(&mut attrs)?;
                // C2x/GNU: a label before a declaration or at the end of a block.
                let body = if self.is(Punct::RBrace) || (self.is_decl_start() && !self.is_kw(Keyword::Attribute)) {
                    Stmt {
                        kind: StmtKind::Expr(None),
                        span: start,
                    }
                } else {
                    self.statement()?
                };
                StmtKind::Labeled(name, attrs, Box::new(body))
            }
            // "case" constant-expression ("..." constant-expression)? ":" statement
            TokenKind::Keyword(Keyword::Case) => {
                self.advance();
                let lo = self.conditional()?;
                let hi = if self.eat(Punct::Ellipsis) {
                    Some(Box::new(self.conditional()?))
                } else {
                    None
                };
                self.expect(Punct::Colon)?;
                let body = self.case_body(start)?;
                StmtKind::Case(lo, hi, Box::new(body))
            }
            TokenKind::Keyword(Keyword::Default) => {
                self.advance();
                self.expect(Punct::Colon)?;
                let body = self.case_body(start)?;
                StmtKind::Default(Box::new(body))
            }
            TokenKind::Punct(Punct::LBrace) => StmtKind::Block(self.compound_statement()?),
            // "if" "(" expression ")" statement ("else" statement)?       (6.8.4.1)
            TokenKind::Keyword(Keyword::If) => {
                self.advance();
                let cond = self.paren_expr()?;
                let then = self.statement()?;
                let els = if self.eat_kw(Keyword::Else) {
                    Some(Box::new(self.statement()?))
                } else {
                    None
                };
                StmtKind::If(cond, Box::new(then), els)
            }
            // "switch" "(" expression ")" statement                        (6.8.4.2)
            TokenKind::Keyword(Keyword::Switch) => {
                self.advance();
                let cond = self.paren_expr()?;
                StmtKind::Switch(cond, Box::new(self.statement()?))
            }
            // "while" "(" expression ")" statement                         (6.8.5.1)
            TokenKind::Keyword(Keyword::While) => {
                self.advance();
                let cond = self.paren_expr()?;
                StmtKind::While(cond, Box::new(self.statement()?))
            }
            // "do" statement "while" "(" expression ")" ";"                (6.8.5.2)
            TokenKind::Keyword(Keyword::Do) => {
                self.advance();
                let body = self.statement()?;
                if !self.eat_kw(Keyword::While) {
                    return Err(self.error_here("expected 'while' in do-while loop"));
                }
                let cond = self.paren_expr()?;
                self.expect(Punct::Semi)?;
                StmtKind::DoWhile(Box::new(body), cond)
            }
            // "for" "(" (declaration | expression? ";") expression? ";" expression? ")" statement  (6.8.5.3)
            TokenKind::Keyword(Keyword::For) => {
                self.advance();
                self.expect(Punct::LParen)?;
                self.push_scope();
                let r = (|| {
                    let init = if self.eat(Punct::Semi) {
                        ForInit::None
                    } else if self.is_decl_start() {
                        ForInit::Decl(self.declaration()?)
                    } else {
                        let e = self.expr()?;
                        self.expect(Punct::Semi)?;
                        ForInit::Expr(e)
                    };
                    let cond = if self.is(Punct::Semi) {
                        None
                    } else {
                        Some(Box::new(self.expr()?))
                    };
                    self.expect(Punct::Semi)?;
                    let step = if self.is(Punct::RParen) {
                        None
                    } else {
                        Some(Box::new(self.expr()?))
                    };
                    self.expect(Punct::RParen)?;
                    let body = self.statement()?;
                    Ok(StmtKind::For(Box::new(init), cond, step, Box::new(body)))
                })();
                self.pop_scope();
                r?
            }
            // "goto" identifier ";" | "goto" "*" expression ";"             (6.8.6.1)
            TokenKind::Keyword(Keyword::Goto) => {
                self.advance();
                let k = if self.eat(Punct::Star) {
                    StmtKind::GotoIndirect(self.expr()?)
                } else {
                    StmtKind::Goto(self.ident()?.0)
                };
                self.expect(Punct::Semi)?;
                k
            }
            TokenKind::Keyword(Keyword::Continue) => {
                self.advance();
                self.expect(Punct::Semi)?;
                StmtKind::Continue
            }
            TokenKind::Keyword(Keyword::Break) => {
                self.advance();
                self.expect(Punct::Semi)?;
                StmtKind::Break
            }
            TokenKind::Keyword(Keyword::Return) => {
                self.advance();
                let e = if self.is(Punct::Semi) { None } else { Some(self.expr()?) };
                self.expect(Punct::Semi)?;
                StmtKind::Return(e)
            }
            TokenKind::Keyword(Keyword::Asm) => StmtKind::Asm(Box::new(self.asm_statement()?)),
            // attribute* ";"  (e.g. __attribute__((fallthrough));)
            TokenKind::Keyword(Keyword::Attribute) => {
                let mut attrs = Vec::new();
                self.attributes(&mut attrs)?;
                if self.eat(Punct::Semi) {
                    StmtKind::Expr(None)
                } else {
                    return self.statement();
                }
            }
            TokenKind::Punct(Punct::Semi) => {
                self.advance();
                StmtKind::Expr(None)
            }
            // `foo bar;` with `foo` not a type: the likely mistake is a missing typedef.
            TokenKind::Ident if self.peek_at(1).kind == TokenKind::Ident => {
                let t = self.tok();
                return Err(Diagnostic::error(t.span, format!("unknown type name '{}'", t.str())));
            }
            _ => {
                let e = self.expr()?;
                if !self.is(Punct::Semi) {
                    return Err(self.error_here("expected ';' after expression"));
                }
                self.advance();
                StmtKind::Expr(Some(e))
            }
        };
        Ok(Stmt {
            kind,
            span: self.span_from(start),
        })
    }

    /// The statement after a case label; a label at the end of a block is accepted (C2x, gcc).
    fn case_body(&mut self, start: super::super::source::Span) -> PResult<Stmt> {
        if self.is(Punct::RBrace) {
            return Ok(Stmt {
                kind: StmtKind::Expr(None),
                span: start,
            });
        }
        self.statement()
    }

    fn paren_expr(&mut self) -> PResult<Expr> {
        self.expect(Punct::LParen)?;
        let e = self.expr()?;
        self.expect(Punct::RParen)?;
        Ok(e)
    }

    /// asm-statement = "asm" ("volatile" | "inline" | "goto")* "(" string-literal
    ///                 (":" operands (":" operands (":" clobbers (":" labels)?)?)?)? ")" ";"
    /// operand       = ("[" identifier "]")? string-literal "(" expression ")"
    fn asm_statement(&mut self) -> PResult<AsmStmt> {
        let start = self.advance();
        let mut a = AsmStmt {
            is_volatile: false,
            is_inline: false,
            is_goto: false,
            template: String::new(),
            outputs: Vec::new(),
            inputs: Vec::new(),
            clobbers: Vec::new(),
            labels: Vec::new(),
        };
        loop {
            if self.eat_kw(Keyword::Volatile) {
                a.is_volatile = true;
            } else if self.eat_kw(Keyword::Inline) {
                a.is_inline = true;
            } else if self.eat_kw(Keyword::Goto) {
                a.is_goto = true;
            } else {
                break;
            }
        }
        self.expect(Punct::LParen)?;
        a.template = self.string_text()?;
        let mut section = 0;
        while section < 4 && self.is(Punct::Colon) {
            self.advance();
            section += 1;
            match section {
                1 | 2 => {
                    let list = self.asm_operands()?;
                    if section == 1 {
                        a.outputs = list;
                    } else {
                        a.inputs = list;
                    }
                }
                3 => {
                    while self.tok().kind == TokenKind::Str {
                        a.clobbers.push(self.string_text()?);
                        if !self.eat(Punct::Comma) {
                            break;
                        }
                    }
                }
                _ => {
                    while self.tok().kind == TokenKind::Ident {
                        a.labels.push(self.ident()?);
                        if !self.eat(Punct::Comma) {
                            break;
                        }
                    }
                }
            }
        }
        self.expect(Punct::RParen)?;
        self.expect(Punct::Semi)?;
        if !a.labels.is_empty() && !a.is_goto {
            return Err(Diagnostic::error(start, "asm labels given without 'goto'"));
        }
        Ok(a)
    }

    fn asm_operands(&mut self) -> PResult<Vec<AsmOperand>> {
        let mut list = Vec::new();
        while self.tok().kind == TokenKind::Str || self.is(Punct::LBracket) {
            let name = if self.eat(Punct::LBracket) {
                let (n, _) = self.ident()?;
                self.expect(Punct::RBracket)?;
                Some(n)
            } else {
                None
            };
            let constraint = self.string_text()?;
            self.expect(Punct::LParen)?;
            let expr = self.expr()?;
            self.expect(Punct::RParen)?;
            list.push(AsmOperand { name, constraint, expr });
            if !self.eat(Punct::Comma) {
                break;
            }
        }
        Ok(list)
    }
}
