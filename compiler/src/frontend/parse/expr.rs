//! Expressions (C11 6.5), precedence by recursive descent from the comma
//! operator down to primary expressions, with the GNU forms: statement
//! expressions, `&&label`, `?:` with an omitted middle, `__builtin_va_arg`,
//! `__builtin_offsetof`, `__builtin_types_compatible_p`, `__real__`/`__imag__`,
//! and `__extension__` before an expression.

use super::super::ast::*;
use super::super::literal::{decode_char, decode_string, parse_number_imaginary, NumLit, Prefix};
use super::super::source::{Diagnostic, PResult, Span};
use super::super::token::{Keyword, Punct, TokenKind};
use super::Parser;

fn binop_of(p: Punct) -> Option<(u8, BinaryOp)> {
    use BinaryOp::*;
    Some(match p {
        Punct::Star => (10, Mul),
        Punct::Slash => (10, Div),
        Punct::Percent => (10, Rem),
        Punct::Plus => (9, Add),
        Punct::Minus => (9, Sub),
        Punct::Shl => (8, Shl),
        Punct::Shr => (8, Shr),
        Punct::Lt => (7, Lt),
        Punct::Gt => (7, Gt),
        Punct::Le => (7, Le),
        Punct::Ge => (7, Ge),
        Punct::EqEq => (6, Eq),
        Punct::Ne => (6, Ne),
        Punct::Amp => (5, BitAnd),
        Punct::Caret => (4, BitXor),
        Punct::Pipe => (3, BitOr),
        Punct::AmpAmp => (2, LogAnd),
        Punct::PipePipe => (1, LogOr),
        _ => return None,
    })
}

fn assign_op(p: Punct) -> Option<Option<BinaryOp>> {
    use BinaryOp::*;
    Some(match p {
        Punct::Assign => None,
        Punct::StarAssign => Some(Mul),
        Punct::SlashAssign => Some(Div),
        Punct::PercentAssign => Some(Rem),
        Punct::PlusAssign => Some(Add),
        Punct::MinusAssign => Some(Sub),
        Punct::ShlAssign => Some(Shl),
        Punct::ShrAssign => Some(Shr),
        Punct::AmpAssign => Some(BitAnd),
        Punct::CaretAssign => Some(BitXor),
        Punct::PipeAssign => Some(BitOr),
        _ => return None,
    })
}

fn mk(kind: ExprKind, span: Span) -> Expr {
    Expr { kind, span }
}

impl Parser {
    /// expression = assignment-expression ("," assignment-expression)*           (6.5.17)
    pub(super) fn expr(&mut self) -> PResult<Expr> {
        let mut e = self.assign()?;
        let mut chain = 0;
        while self.is(Punct::Comma) {
            self.advance();
            // Each operator deepens the (left-nested) tree.
            self.enter()?;
            chain += 1;
            let r = self.assign()?;
            let span = Span::new(e.span.file, e.span.start, r.span.end.max(e.span.start));
            e = mk(ExprKind::Binary(BinaryOp::Comma, Box::new(e), Box::new(r)), span);
        }
        self.leave_n(chain);
        Ok(e)
    }

    /// assignment-expression = conditional-expression
    ///                       | unary-expression assignment-operator assignment-expression   (6.5.16)
    pub(super) fn assign(&mut self) -> PResult<Expr> {
        self.enter()?;
        let r = (|| {
            let lhs = self.conditional()?;
            if let TokenKind::Punct(p) = self.tok().kind {
                if let Some(op) = assign_op(p) {
                    self.advance();
                    let rhs = self.assign()?;
                    let span = lhs.span;
                    return Ok(mk(ExprKind::Assign(op, Box::new(lhs), Box::new(rhs)), span));
                }
            }
            Ok(lhs)
        })();
        self.leave();
        r
    }

    /// conditional-expression = logical-or-expression ("?" expression? ":" conditional-expression)?  (6.5.15)
    pub(super) fn conditional(&mut self) -> PResult<Expr> {
        let c = self.binary(1)?;
        if !self.eat(Punct::Question) {
            return Ok(c);
        }
        let mid = if self.is(Punct::Colon) {
            None
        } else {
            Some(Box::new(self.expr()?))
        };
        self.expect(Punct::Colon)?;
        let els = self.conditional()?;
        let span = c.span;
        Ok(mk(ExprKind::Cond(Box::new(c), mid, Box::new(els)), span))
    }

    /// binary operators 6.5.5 - 6.5.14 by precedence climbing over `cast-expression`s.
    fn binary(&mut self, min_prec: u8) -> PResult<Expr> {
        let mut lhs = self.cast()?;
        let mut chain = 0;
        while let TokenKind::Punct(p) = self.tok().kind {
            let Some((prec, op)) = binop_of(p) else { break };
            if prec < min_prec {
                break;
            }
            self.advance();
            // A chain `a + b + c ...` nests to the left: each operator counts
            // towards the depth limit, so consumers of the tree can recurse.
            self.enter()?;
            chain += 1;
            self.enter()?;
            let rhs = self.binary(prec + 1);
            self.leave();
            let rhs = rhs?;
            let span = lhs.span;
            lhs = mk(ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)), span);
        }
        self.leave_n(chain);
        Ok(lhs)
    }

    /// cast-expression = "(" type-name ")" cast-expression | unary-expression      (6.5.4)
    pub(super) fn cast(&mut self) -> PResult<Expr> {
        if self.is(Punct::LParen) && self.peek_type_name_at(1) {
            let start = self.advance();
            let tn = self.type_name()?;
            self.expect(Punct::RParen)?;
            if self.is(Punct::LBrace) {
                // A compound literal, then postfix operators.
                let items = self.init_list()?;
                let e = mk(ExprKind::CompoundLiteral(Box::new(tn), items), self.span_from(start));
                return self.postfix_ops(e);
            }
            self.enter()?;
            let operand = self.cast();
            self.leave();
            let operand = operand?;
            return Ok(mk(
                ExprKind::Cast(Box::new(tn), Box::new(operand)),
                self.span_from(start),
            ));
        }
        self.unary()
    }

    /// Whether the token `n` ahead starts a type name.
    fn peek_type_name_at(&mut self, n: usize) -> bool {
        let saved = self.pos;
        self.pos = (self.pos + n).min(self.toks.len() - 1);
        let r = self.is_type_name_start();
        self.pos = saved;
        r
    }

    /// unary-expression = postfix-expression
    ///                  | ("++" | "--") unary-expression
    ///                  | ("&" | "*" | "+" | "-" | "~" | "!") cast-expression
    ///                  | "sizeof" unary-expression | "sizeof" "(" type-name ")"
    ///                  | "_Alignof" "(" type-name ")" | "&&" identifier
    ///                  | "__extension__" cast-expression | ("__real__" | "__imag__") cast-expression   (6.5.3)
    fn unary(&mut self) -> PResult<Expr> {
        self.enter()?;
        let r = self.unary_inner();
        self.leave();
        r
    }

    fn unary_inner(&mut self) -> PResult<Expr> {
        let (kind, start) = self.kind_span();
        let op = match kind {
            TokenKind::Punct(Punct::PlusPlus) => Some(UnaryOp::PreInc),
            TokenKind::Punct(Punct::MinusMinus) => Some(UnaryOp::PreDec),
            TokenKind::Punct(Punct::Amp) => Some(UnaryOp::AddrOf),
            TokenKind::Punct(Punct::Star) => Some(UnaryOp::Deref),
            TokenKind::Punct(Punct::Plus) => Some(UnaryOp::Plus),
            TokenKind::Punct(Punct::Minus) => Some(UnaryOp::Neg),
            TokenKind::Punct(Punct::Tilde) => Some(UnaryOp::BitNot),
            TokenKind::Punct(Punct::Bang) => Some(UnaryOp::Not),
            TokenKind::Keyword(Keyword::Real) => Some(UnaryOp::Real),
            TokenKind::Keyword(Keyword::Imag) => Some(UnaryOp::Imag),
            _ => None,
        };
        if let Some(op) = op {
            self.advance();
            let e = if matches!(op, UnaryOp::PreInc | UnaryOp::PreDec) {
                self.unary()?
            } else {
                self.cast()?
            };
            return Ok(mk(ExprKind::Unary(op, Box::new(e)), self.span_from(start)));
        }
        match kind {
            TokenKind::Punct(Punct::AmpAmp) => {
                self.advance();
                let (name, _) = self.ident()?;
                Ok(mk(ExprKind::LabelAddr(name), self.span_from(start)))
            }
            TokenKind::Keyword(Keyword::Extension) => {
                self.advance();
                self.cast()
            }
            TokenKind::Keyword(k @ (Keyword::Sizeof | Keyword::Alignof)) => {
                self.advance();
                if self.is(Punct::LParen) && self.peek_type_name_at(1) {
                    self.advance();
                    let tn = self.type_name()?;
                    self.expect(Punct::RParen)?;
                    if self.is(Punct::LBrace) && k == Keyword::Sizeof {
                        // sizeof (type){...}: a compound literal operand.
                        let items = self.init_list()?;
                        let e = mk(ExprKind::CompoundLiteral(Box::new(tn), items), self.span_from(start));
                        let e = self.postfix_ops(e)?;
                        return Ok(mk(ExprKind::SizeofExpr(Box::new(e)), self.span_from(start)));
                    }
                    let kind = if k == Keyword::Sizeof {
                        ExprKind::SizeofType(Box::new(tn))
                    } else {
                        ExprKind::AlignofType(Box::new(tn))
                    };
                    return Ok(mk(kind, self.span_from(start)));
                }
                let e = self.unary()?;
                let kind = if k == Keyword::Sizeof {
                    ExprKind::SizeofExpr(Box::new(e))
                } else {
                    ExprKind::AlignofExpr(Box::new(e))
                };
                Ok(mk(kind, self.span_from(start)))
            }
            _ => self.postfix(),
        }
    }

    /// postfix-expression = primary-expression postfix-op*
    /// postfix-op = "[" expression "]" | "(" argument-list? ")" | ("." | "->") identifier | "++" | "--"   (6.5.2)
    fn postfix(&mut self) -> PResult<Expr> {
        let e = self.primary()?;
        self.postfix_ops(e)
    }

    fn postfix_ops(&mut self, e: Expr) -> PResult<Expr> {
        let mut chain = 0;
        let r = self.postfix_chain(e, &mut chain);
        self.leave_n(chain);
        r
    }

    fn postfix_chain(&mut self, mut e: Expr, chain: &mut usize) -> PResult<Expr> {
        let start = e.span;
        loop {
            self.enter()?;
            *chain += 1;
            let kind = match self.tok().kind {
                TokenKind::Punct(Punct::LBracket) => {
                    self.advance();
                    let idx = self.expr()?;
                    self.expect(Punct::RBracket)?;
                    ExprKind::Index(Box::new(e), Box::new(idx))
                }
                TokenKind::Punct(Punct::LParen) => {
                    self.advance();
                    let mut args = Vec::new();
                    if !self.is(Punct::RParen) {
                        loop {
                            args.push(self.assign()?);
                            if !self.eat(Punct::Comma) {
                                break;
                            }
                        }
                    }
                    self.expect(Punct::RParen)?;
                    ExprKind::Call(Box::new(e), args)
                }
                TokenKind::Punct(p @ (Punct::Dot | Punct::Arrow)) => {
                    self.advance();
                    let (name, _) = self.ident()?;
                    if p == Punct::Dot {
                        ExprKind::Member(Box::new(e), name)
                    } else {
                        ExprKind::Arrow(Box::new(e), name)
                    }
                }
                TokenKind::Punct(Punct::PlusPlus) => {
                    self.advance();
                    ExprKind::Unary(UnaryOp::PostInc, Box::new(e))
                }
                TokenKind::Punct(Punct::MinusMinus) => {
                    self.advance();
                    ExprKind::Unary(UnaryOp::PostDec, Box::new(e))
                }
                _ => return Ok(e),
            };
            e = mk(kind, self.span_from(start));
        }
    }

    /// primary-expression = identifier | constant | string-literal+ | "(" expression ")"
    ///                    | "(" compound-statement ")" | generic-selection
    ///                    | "__builtin_va_arg" "(" assign "," type-name ")"
    ///                    | "__builtin_offsetof" "(" type-name "," member-designator ")"
    ///                    | "__builtin_types_compatible_p" "(" type-name "," type-name ")"   (6.5.1)
    fn primary(&mut self) -> PResult<Expr> {
        let (kind, start) = self.kind_span();
        match kind {
            TokenKind::Punct(Punct::LParen) if self.peek_at(1).is_punct(Punct::LBrace) => {
                self.advance();
                let block = self.compound_statement()?;
                self.expect(Punct::RParen)?;
                Ok(mk(ExprKind::StmtExpr(Box::new(block)), self.span_from(start)))
            }
            TokenKind::Punct(Punct::LParen) => {
                self.advance();
                let e = self.expr()?;
                self.expect(Punct::RParen)?;
                Ok(e)
            }
            TokenKind::Ident => {
                let name = self.name_here();
                self.advance();
                Ok(mk(ExprKind::Ident(name), start))
            }
            TokenKind::Number => {
                let (num, imaginary) = parse_number_imaginary(&self.tok().text, start)?;
                self.advance();
                let kind = match num {
                    NumLit::Int(i) => ExprKind::Int(i),
                    NumLit::Float(f) => ExprKind::Float(Box::new(f)),
                };
                if imaginary {
                    return Ok(mk(ExprKind::Imaginary(Box::new(mk(kind, start))), start));
                }
                Ok(mk(kind, start))
            }
            TokenKind::Char => {
                let c = decode_char(&self.tok().text, start)?;
                self.advance();
                let value = match c.prefix {
                    Prefix::None | Prefix::U8 if c.count == 1 => {
                        if self.target().char_is_signed() {
                            c.value as u8 as i8 as i64
                        } else {
                            c.value as u8 as i64
                        }
                    }
                    Prefix::None | Prefix::U8 => c.value as u32 as i32 as i64,
                    Prefix::Wide if self.target().wchar_is_signed() => c.value as u32 as i32 as i64,
                    Prefix::Utf16 => c.value & 0xffff,
                    _ => c.value as u32 as i64,
                };
                Ok(mk(
                    ExprKind::Char {
                        value,
                        prefix: c.prefix,
                    },
                    start,
                ))
            }
            TokenKind::Str => self.string_literal(),
            TokenKind::Keyword(Keyword::Generic) => self.generic(),
            TokenKind::Keyword(Keyword::BuiltinVaArg) => {
                self.advance();
                self.expect(Punct::LParen)?;
                let ap = self.assign()?;
                self.expect(Punct::Comma)?;
                let tn = self.type_name()?;
                self.expect(Punct::RParen)?;
                Ok(mk(ExprKind::VaArg(Box::new(ap), Box::new(tn)), self.span_from(start)))
            }
            TokenKind::Keyword(Keyword::BuiltinOffsetof) => {
                self.advance();
                self.expect(Punct::LParen)?;
                let tn = self.type_name()?;
                self.expect(Punct::Comma)?;
                let mut path = vec![{
                    let (n, s) = self.ident()?;
                    Designator::Field(n, s)
                }];
                loop {
                    if self.eat(Punct::Dot) {
                        let (n, s) = self.ident()?;
                        path.push(Designator::Field(n, s));
                    } else if self.eat(Punct::LBracket) {
                        path.push(Designator::Index(self.expr()?));
                        self.expect(Punct::RBracket)?;
                    } else {
                        break;
                    }
                }
                self.expect(Punct::RParen)?;
                Ok(mk(ExprKind::Offsetof(Box::new(tn), path), self.span_from(start)))
            }
            TokenKind::Keyword(Keyword::BuiltinTypesCompatibleP) => {
                self.advance();
                self.expect(Punct::LParen)?;
                let a = self.type_name()?;
                self.expect(Punct::Comma)?;
                let b = self.type_name()?;
                self.expect(Punct::RParen)?;
                Ok(mk(
                    ExprKind::TypesCompatible(Box::new(a), Box::new(b)),
                    self.span_from(start),
                ))
            }
            _ => Err(self.error_here("expected expression")),
        }
    }

    /// string-literal+ : adjacent literals concatenate (6.4.5p5); a narrow and a
    /// prefixed literal give the prefixed kind, two different prefixes are an error.
    fn string_literal(&mut self) -> PResult<Expr> {
        let start = self.span();
        let first = self.pos;
        while self.tok().kind == TokenKind::Str {
            self.advance();
        }
        let toks = &self.toks[first..self.pos];
        let prefix_of = |t: &super::super::token::Token| {
            let q = t.text.iter().position(|&c| c == b'"').unwrap_or(0);
            match &t.text[..q] {
                b"u8" => Prefix::U8,
                b"L" => Prefix::Wide,
                b"u" => Prefix::Utf16,
                b"U" => Prefix::Utf32,
                _ => Prefix::None,
            }
        };
        let mut prefix = Prefix::None;
        for t in toks {
            let p = prefix_of(t);
            if p.unit_size() > 1 {
                if prefix.unit_size() > 1 && prefix != p {
                    return Err(Diagnostic::error(
                        t.span,
                        "concatenation of string literals with different prefixes",
                    ));
                }
                prefix = p;
            } else if p == Prefix::U8 && prefix == Prefix::None {
                prefix = p;
            }
        }
        let spelled = match prefix {
            Prefix::None => "",
            Prefix::U8 => "u8",
            Prefix::Wide => "L",
            Prefix::Utf16 => "u",
            Prefix::Utf32 => "U",
        };
        let mut units = Vec::new();
        for t in toks {
            let q = t.text.iter().position(|&c| c == b'"').unwrap_or(0);
            let mut text = spelled.as_bytes().to_vec();
            text.extend_from_slice(&t.text[q..]);
            units.extend(decode_string(&text, t.span)?.units);
        }
        Ok(mk(ExprKind::Str { prefix, units }, self.span_from(start)))
    }

    /// generic-selection = "_Generic" "(" assign "," generic-assoc ("," generic-assoc)* ")"
    /// generic-assoc     = (type-name | "default") ":" assign                       (6.5.1.1)
    fn generic(&mut self) -> PResult<Expr> {
        let start = self.advance();
        self.expect(Punct::LParen)?;
        let ctrl = self.assign()?;
        let mut assocs = Vec::new();
        while self.eat(Punct::Comma) {
            let tn = if self.eat_kw(Keyword::Default) {
                None
            } else {
                Some(self.type_name()?)
            };
            self.expect(Punct::Colon)?;
            assocs.push((tn, self.assign()?));
        }
        self.expect(Punct::RParen)?;
        if assocs.is_empty() {
            return Err(Diagnostic::error(start, "_Generic needs at least one association"));
        }
        Ok(mk(ExprKind::Generic(Box::new(ctrl), assocs), self.span_from(start)))
    }
}
