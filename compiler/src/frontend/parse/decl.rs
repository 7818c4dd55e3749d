//! Declarations (C11 6.7): declaration specifiers, declarators, struct,
//! union and enum specifiers, type names, `_Static_assert`, and function
//! definitions (6.9.1), with GNU attributes, asm labels, `typeof` and
//! `__extension__`.

use super::super::ast::*;
use super::super::source::{Diagnostic, PResult, Span};
use super::super::token::{Keyword, Punct, TokenKind};
use super::specifiers::SpecCount;
use super::{DeclOrFunc, Parser};
use std::sync::Arc;

impl Parser {
    /// Whether the current token can start declaration specifiers.
    pub(super) fn is_decl_start(&self) -> bool {
        let t = self.tok();
        match t.kind {
            TokenKind::Keyword(k) => {
                use Keyword::*;
                matches!(
                    k,
                    Auto | Char
                        | Const
                        | Double
                        | Enum
                        | Extern
                        | Float
                        | Inline
                        | Int
                        | Long
                        | Register
                        | Restrict
                        | Short
                        | Signed
                        | Static
                        | Struct
                        | Typedef
                        | Union
                        | Unsigned
                        | Void
                        | Volatile
                        | Alignas
                        | Atomic
                        | Bool
                        | Complex
                        | Noreturn
                        | ThreadLocal
                        | Int128
                        | Int128T
                        | UInt128T
                        | Float128
                        | Attribute
                        | Typeof
                        | BuiltinVaList
                        | AutoType
                        | StaticAssert
                ) || (k == Extension && self.peek_is_decl_after_extension())
            }
            TokenKind::Ident => self.is_typedef_name(t),
            _ => false,
        }
    }

    fn peek_is_decl_after_extension(&self) -> bool {
        let mut n = 1;
        while self.peek_at(n).is_keyword(Keyword::Extension) {
            n += 1;
        }
        let t = self.peek_at(n);
        match t.kind {
            TokenKind::Keyword(k) => {
                !matches!(
                    k,
                    Keyword::Sizeof
                        | Keyword::Alignof
                        | Keyword::BuiltinVaArg
                        | Keyword::BuiltinOffsetof
                        | Keyword::BuiltinTypesCompatibleP
                        | Keyword::Real
                        | Keyword::Imag
                        | Keyword::Extension
                ) && !matches!(
                    k,
                    Keyword::If | Keyword::While | Keyword::Return | Keyword::Do | Keyword::For | Keyword::Switch
                )
            }
            TokenKind::Ident => self.is_typedef_name(t),
            _ => false,
        }
    }

    /// Whether the current token starts a type name (for casts, sizeof, compound literals).
    pub(super) fn is_type_name_start(&self) -> bool {
        self.is_decl_start() && !self.is_kw(Keyword::StaticAssert)
    }

    /// declaration-specifiers = (storage-class | type-specifier | type-qualifier
    ///                          | function-specifier | alignment-specifier | attribute
    ///                          | "__extension__")+          (6.7)
    pub(super) fn decl_specs(&mut self) -> PResult<DeclSpecs> {
        let start = self.span();
        let mut specs = DeclSpecs {
            storage: None,
            thread_local: false,
            quals: TypeQuals::default(),
            is_inline: false,
            is_noreturn: false,
            base: BaseType::Int,
            align: Vec::new(),
            attrs: Vec::new(),
            span: start,
        };
        let mut count = SpecCount::default();
        let mut saw_anything = false;
        loop {
            let (tkind, tspan) = self.kind_span();
            let kw = match tkind {
                TokenKind::Keyword(k) => k,
                TokenKind::Ident if count.other.is_none() && !count.any() && self.is_typedef_name(self.tok()) => {
                    let name = self.name_here();
                    let span = self.advance();
                    count.other = Some(BaseType::Typedef(name, span));
                    saw_anything = true;
                    continue;
                }
                _ => break,
            };
            use Keyword::*;
            let storage = |s| Some(s);
            let sc = match kw {
                Typedef => storage(StorageClass::Typedef),
                Extern => storage(StorageClass::Extern),
                Static => storage(StorageClass::Static),
                Auto => storage(StorageClass::Auto),
                Register => storage(StorageClass::Register),
                _ => None,
            };
            if let Some(sc) = sc {
                if specs.storage.is_some() {
                    return Err(Diagnostic::error(
                        tspan,
                        "multiple storage classes in declaration specifiers",
                    ));
                }
                specs.storage = Some(sc);
                self.advance();
                saw_anything = true;
                continue;
            }
            match kw {
                Attribute => {
                    self.attributes(&mut specs.attrs)?;
                    continue;
                }
                Extension => {
                    self.advance();
                    continue;
                }
                _ => {}
            }
            saw_anything = true;
            match kw {
                ThreadLocal => specs.thread_local = true,
                Const => specs.quals.is_const = true,
                Volatile => specs.quals.is_volatile = true,
                Restrict => specs.quals.is_restrict = true,
                Atomic if self.peek_at(1).is_punct(Punct::LParen) => {
                    self.advance();
                    self.advance();
                    let tn = self.type_name()?;
                    self.expect(Punct::RParen)?;
                    self.set_other(&mut count, BaseType::Atomic(Box::new(tn)), tspan)?;
                    continue;
                }
                Atomic => specs.quals.is_atomic = true,
                Inline => specs.is_inline = true,
                Noreturn => specs.is_noreturn = true,
                Alignas => {
                    self.advance();
                    self.expect(Punct::LParen)?;
                    if self.is_type_name_start() {
                        specs.align.push(AlignSpec::Type(self.type_name()?));
                    } else {
                        specs.align.push(AlignSpec::Expr(self.conditional()?));
                    }
                    self.expect(Punct::RParen)?;
                    continue;
                }
                Void => count.void += 1,
                Bool => count.bool_ += 1,
                Char => count.char += 1,
                Short => count.short += 1,
                Int => count.int += 1,
                Long => count.long += 1,
                Float => count.float += 1,
                Double => count.double += 1,
                Signed => count.signed += 1,
                Unsigned => count.unsigned += 1,
                Int128 => count.int128 += 1,
                Int128T => {
                    count.int128 += 1;
                    count.signed += 1;
                }
                UInt128T => {
                    count.int128 += 1;
                    count.unsigned += 1;
                }
                Complex => count.complex += 1,
                Float128 => count.float128 += 1,
                BuiltinVaList | AutoType => {
                    self.advance();
                    let b = if kw == AutoType {
                        BaseType::AutoType
                    } else {
                        BaseType::VaList
                    };
                    self.set_other(&mut count, b, tspan)?;
                    continue;
                }
                Struct | Union => {
                    let s = self.struct_spec()?;
                    let b = if kw == Struct {
                        BaseType::Struct(Arc::new(s))
                    } else {
                        BaseType::Union(Arc::new(s))
                    };
                    self.set_other(&mut count, b, tspan)?;
                    continue;
                }
                Enum => {
                    let e = self.enum_spec()?;
                    self.set_other(&mut count, BaseType::Enum(Arc::new(e)), tspan)?;
                    continue;
                }
                Typeof => {
                    self.advance();
                    self.expect(Punct::LParen)?;
                    let b = if self.is_type_name_start() {
                        BaseType::TypeofType(Box::new(self.type_name()?))
                    } else {
                        BaseType::TypeofExpr(Box::new(self.expr()?))
                    };
                    self.expect(Punct::RParen)?;
                    self.set_other(&mut count, b, tspan)?;
                    continue;
                }
                _ => break,
            }
            self.advance();
        }
        if !saw_anything && !count.any() {
            return Err(self.error_here("expected declaration specifiers"));
        }
        let span = self.span_from(start);
        specs.base = count.resolve(span, true)?;
        specs.span = span;
        Ok(specs)
    }

    fn set_other(&self, count: &mut SpecCount, b: BaseType, span: Span) -> PResult<()> {
        if count.other.is_some() || count.any() {
            return Err(Diagnostic::error(
                span,
                "two or more data types in declaration specifiers",
            ));
        }
        count.other = Some(b);
        Ok(())
    }

    /// struct-or-union-specifier = ("struct" | "union") attribute* identifier?
    ///                             ("{" struct-declaration* "}")? attribute*     (6.7.2.1)
    fn struct_spec(&mut self) -> PResult<StructSpec> {
        self.enter()?;
        let r = self.struct_spec_inner();
        self.leave();
        r
    }

    fn struct_spec_inner(&mut self) -> PResult<StructSpec> {
        let start = self.advance();
        let mut attrs = Vec::new();
        self.attributes(&mut attrs)?;
        let tag = if self.tok().kind == TokenKind::Ident {
            Some(self.ident()?.0)
        } else {
            None
        };
        let mut members = None;
        if self.eat(Punct::LBrace) {
            let mut list = Vec::new();
            loop {
                for (text, span) in self.take_pragmas() {
                    list.push(StructMember::Pragma(text, span));
                }
                if self.eat(Punct::RBrace) {
                    break;
                }
                if self.eat(Punct::Semi) {
                    continue;
                }
                list.push(self.struct_declaration()?);
            }
            members = Some(list);
            self.attributes(&mut attrs)?;
        } else if tag.is_none() {
            return Err(self.error_here("expected '{' or tag name in struct or union specifier"));
        }
        Ok(StructSpec {
            tag,
            members,
            attrs,
            span: self.span_from(start),
        })
    }

    /// struct-declaration = specifier-qualifier-list (field-declarator ("," field-declarator)*)? ";"
    ///                    | static-assert-declaration
    /// field-declarator   = declarator? (":" constant-expression)? attribute*
    fn struct_declaration(&mut self) -> PResult<StructMember> {
        let start = self.span();
        if self.is_kw(Keyword::StaticAssert) {
            return Ok(StructMember::StaticAssert(self.static_assert()?));
        }
        if !self.is_decl_start() {
            return Err(self.error_here("expected specifier-qualifier-list"));
        }
        let specs = self.decl_specs()?;
        let mut declarators = Vec::new();
        if !self.is(Punct::Semi) {
            loop {
                let declarator = if self.is(Punct::Colon) {
                    None
                } else {
                    Some(self.declarator()?)
                };
                let bit_width = if self.eat(Punct::Colon) {
                    Some(self.conditional()?)
                } else {
                    None
                };
                let mut attrs = Vec::new();
                self.attributes(&mut attrs)?;
                if let Some(d) = &declarator {
                    if d.name.is_none() {
                        return Err(Diagnostic::error(d.span, "expected member name"));
                    }
                }
                declarators.push(FieldDeclarator {
                    declarator,
                    bit_width,
                    attrs,
                });
                if !self.eat(Punct::Comma) {
                    break;
                }
            }
        }
        self.expect(Punct::Semi)?;
        Ok(StructMember::Field {
            specs,
            declarators,
            span: self.span_from(start),
        })
    }

    /// enum-specifier = "enum" attribute* identifier? ("{" enumerator ("," enumerator)* ","? "}")? attribute*
    /// enumerator     = identifier attribute* ("=" constant-expression)?        (6.7.2.2)
    fn enum_spec(&mut self) -> PResult<EnumSpec> {
        let start = self.advance();
        let mut attrs = Vec::new();
        self.attributes(&mut attrs)?;
        let tag = if self.tok().kind == TokenKind::Ident {
            Some(self.ident()?.0)
        } else {
            None
        };
        let mut enumerators = None;
        if self.eat(Punct::LBrace) {
            let mut list = Vec::new();
            while !self.eat(Punct::RBrace) {
                let (name, span) = self.ident()?;
                let mut a = Vec::new();
                self.attributes(&mut a)?;
                let value = if self.eat(Punct::Assign) {
                    Some(self.conditional()?)
                } else {
                    None
                };
                self.declare(&name, false);
                list.push(Enumerator { name, value, span });
                if !self.eat(Punct::Comma) {
                    self.expect(Punct::RBrace)?;
                    break;
                }
            }
            if list.is_empty() {
                return Err(Diagnostic::error(start, "empty enum is invalid"));
            }
            enumerators = Some(list);
            self.attributes(&mut attrs)?;
        } else if tag.is_none() {
            return Err(self.error_here("expected '{' or tag name in enum specifier"));
        }
        Ok(EnumSpec {
            tag,
            enumerators,
            attrs,
            span: self.span_from(start),
        })
    }

    /// declarator = pointer* ("(" attribute* declarator ")" | identifier)? suffix* attribute*
    /// pointer    = "*" (type-qualifier | attribute)*                       (6.7.6)
    /// Abstract declarators (no identifier) are accepted too; callers check.
    pub(super) fn declarator(&mut self) -> PResult<Declarator> {
        self.enter()?;
        let r = self.declarator_inner();
        self.leave();
        r
    }

    fn declarator_inner(&mut self) -> PResult<Declarator> {
        let start = self.span();
        let mut attrs = Vec::new();
        let mut ptrs = Vec::new();
        loop {
            self.attributes(&mut attrs)?;
            if !self.eat(Punct::Star) {
                break;
            }
            let mut q = TypeQuals::default();
            loop {
                match self.tok().kind {
                    TokenKind::Keyword(Keyword::Const) => q.is_const = true,
                    TokenKind::Keyword(Keyword::Volatile) => q.is_volatile = true,
                    TokenKind::Keyword(Keyword::Restrict) => q.is_restrict = true,
                    TokenKind::Keyword(Keyword::Atomic) => q.is_atomic = true,
                    TokenKind::Keyword(Keyword::Attribute) => {
                        self.attributes(&mut attrs)?;
                        continue;
                    }
                    _ => break,
                }
                self.advance();
            }
            ptrs.push(q);
        }
        let mut d = Declarator::default();
        if self.is(Punct::LParen) && self.is_nested_declarator() {
            self.advance();
            d = self.declarator()?;
            self.expect(Punct::RParen)?;
        } else if self.tok().kind == TokenKind::Ident {
            let (n, s) = self.ident()?;
            d.name = Some((n, s));
        }
        let mut suffixes = Vec::new();
        loop {
            if self.eat(Punct::LBracket) {
                suffixes.push(self.array_suffix()?);
            } else if self.is(Punct::LParen) {
                self.advance();
                suffixes.push(Derived::Function(self.params()?));
            } else {
                break;
            }
        }
        self.attributes(&mut attrs)?;
        d.derived.reserve_exact(suffixes.len() + ptrs.len());
        d.derived.extend(suffixes);
        d.derived.extend(ptrs.into_iter().rev().map(Derived::Pointer));
        d.attrs.reserve_exact(attrs.len());
        d.attrs.extend(attrs);
        d.span = self.span_from(start);
        Ok(d)
    }

    /// After a `(` in a declarator: a nested declarator, or a parameter list?
    fn is_nested_declarator(&self) -> bool {
        let n = self.peek_at(1);
        n.is_punct(Punct::Star)
            || n.is_punct(Punct::LParen)
            || n.is_punct(Punct::LBracket)
            || n.is_keyword(Keyword::Attribute)
            || (n.kind == TokenKind::Ident && !self.is_typedef_name(n))
    }

    /// array-suffix = "[" ("static" | type-qualifier)* (assign | "*")? "]"     (6.7.6.2)
    fn array_suffix(&mut self) -> PResult<Derived> {
        let mut quals = TypeQuals::default();
        let mut is_static = false;
        loop {
            match self.tok().kind {
                TokenKind::Keyword(Keyword::Static) => is_static = true,
                TokenKind::Keyword(Keyword::Const) => quals.is_const = true,
                TokenKind::Keyword(Keyword::Volatile) => quals.is_volatile = true,
                TokenKind::Keyword(Keyword::Restrict) => quals.is_restrict = true,
                TokenKind::Keyword(Keyword::Atomic) => quals.is_atomic = true,
                _ => break,
            }
            self.advance();
        }
        let size = if self.eat(Punct::RBracket) {
            return Ok(Derived::Array {
                size: ArraySize::Unknown,
                quals,
                is_static,
            });
        } else if self.is(Punct::Star) && self.peek_at(1).is_punct(Punct::RBracket) {
            self.advance();
            ArraySize::Star
        } else {
            ArraySize::Expr(Box::new(self.assign()?))
        };
        self.expect(Punct::RBracket)?;
        Ok(Derived::Array { size, quals, is_static })
    }

    /// params = ("void" | param ("," param)* ("," "...")? | identifier ("," identifier)*)? ")"
    /// param  = declaration-specifiers declarator                               (6.7.6.3)
    fn params(&mut self) -> PResult<FunctionSig> {
        let mut sig = FunctionSig {
            params: Vec::new(),
            variadic: false,
            unprototyped: false,
            identifiers: Vec::new(),
        };
        if self.eat(Punct::RParen) {
            sig.unprototyped = true;
            return Ok(sig);
        }
        if self.is_kw(Keyword::Void) && self.peek_at(1).is_punct(Punct::RParen) {
            self.advance();
            self.advance();
            return Ok(sig);
        }
        if self.tok().kind == TokenKind::Ident && !self.is_typedef_name(self.tok()) {
            // K&R identifier list.
            loop {
                sig.identifiers.push(self.ident()?);
                if !self.eat(Punct::Comma) {
                    break;
                }
            }
            self.expect(Punct::RParen)?;
            return Ok(sig);
        }
        // Parameter names live in the prototype scope.
        self.push_scope();
        let r = (|| {
            loop {
                if self.eat(Punct::Ellipsis) {
                    sig.variadic = true;
                    break;
                }
                let start = self.span();
                if !self.is_decl_start() {
                    if self.tok().kind == TokenKind::Ident {
                        return Err(Diagnostic::error(
                            self.span(),
                            format!("unknown type name '{}'", self.tok().str()),
                        ));
                    }
                    return Err(self.error_here("expected parameter declaration"));
                }
                let specs = self.decl_specs()?;
                let declarator = self.declarator()?;
                if let Some((n, _)) = &declarator.name {
                    self.declare(n, false);
                }
                sig.params.push(ParamDecl {
                    specs,
                    declarator,
                    span: self.span_from(start),
                });
                if !self.eat(Punct::Comma) {
                    break;
                }
            }
            self.expect(Punct::RParen)?;
            Ok(())
        })();
        self.pop_scope();
        r?;
        sig.params.shrink_to_fit();
        Ok(sig)
    }

    /// type-name = specifier-qualifier-list abstract-declarator?                 (6.7.7)
    pub(super) fn type_name(&mut self) -> PResult<TypeName> {
        let start = self.span();
        let specs = self.decl_specs()?;
        if specs.storage.is_some() {
            return Err(Diagnostic::error(specs.span, "storage class specified in a type name"));
        }
        let declarator = self.declarator()?;
        if let Some((_, span)) = &declarator.name {
            return Err(Diagnostic::error(*span, "unexpected identifier in type name"));
        }
        Ok(TypeName {
            specs,
            declarator,
            span: self.span_from(start),
        })
    }

    /// static-assert-declaration = "_Static_assert" "(" constant-expression ("," string-literal)? ")" ";"  (6.7.10)
    pub(super) fn static_assert(&mut self) -> PResult<StaticAssert> {
        let start = self.advance();
        self.expect(Punct::LParen)?;
        let cond = self.conditional()?;
        let message = if self.eat(Punct::Comma) {
            Some(self.string_text()?)
        } else {
            None
        };
        self.expect(Punct::RParen)?;
        self.expect(Punct::Semi)?;
        Ok(StaticAssert {
            cond,
            message,
            span: self.span_from(start),
        })
    }

    /// declaration = declaration-specifiers (init-declarator ("," init-declarator)*)? ";"
    ///             | static-assert-declaration                                      (6.7)
    pub(super) fn declaration(&mut self) -> PResult<Declaration> {
        match self.declaration_or_function(false)? {
            DeclOrFunc::Decl(d) => Ok(d),
            DeclOrFunc::Func(f) => Err(Diagnostic::error(f.span, "function definition is not allowed here")),
        }
    }

    /// function-definition = declaration-specifiers declarator declaration* compound-statement   (6.9.1)
    /// init-declarator     = declarator asm-label? attribute* ("=" initializer)?
    pub(super) fn declaration_or_function(&mut self, allow_function: bool) -> PResult<DeclOrFunc> {
        let start = self.span();
        if self.is_kw(Keyword::StaticAssert) {
            let sa = self.static_assert()?;
            let specs = implicit_int_specs(sa.span);
            return Ok(DeclOrFunc::Decl(Declaration {
                specs,
                declarators: Vec::new(),
                static_assert: Some(Box::new(sa)),
                span: self.span_from(start),
            }));
        }
        // Attributes before the specifiers, which may then be missing:
        // `__attribute__((noinline)) f() { ... }` is implicit int too.
        let mut lead_attrs = Vec::new();
        if allow_function {
            self.attributes(&mut lead_attrs)?;
        }
        // C89 implicit int at file scope: `main(c) { ... }` (gcc accepts it with a warning).
        let implicit_int = allow_function
            && self.tok().kind == TokenKind::Ident
            && !self.is_typedef_name(self.tok())
            && self.peek_at(1).is_punct(Punct::LParen);
        if !implicit_int && !self.is_decl_start() {
            if self.tok().kind == TokenKind::Ident && self.peek_at(1).kind == TokenKind::Ident {
                return Err(Diagnostic::error(
                    self.span(),
                    format!("unknown type name '{}'", self.tok().str()),
                ));
            }
            return Err(self.error_here("expected declaration"));
        }
        let mut specs = if implicit_int {
            implicit_int_specs(self.span())
        } else {
            self.decl_specs()?
        };
        specs.attrs.splice(0..0, lead_attrs);
        let is_typedef = specs.storage == Some(StorageClass::Typedef);
        // Most declarations declare one name; AST vectors hold large
        // elements, so none is given room it does not use (less memory
        // touched per compile).
        let mut declarators = Vec::with_capacity(1);
        if !self.is(Punct::Semi) {
            loop {
                let mut declarator = self.declarator()?;
                let Some((name, _)) = declarator.name.clone() else {
                    return Err(Diagnostic::error(declarator.span, "expected identifier in declarator"));
                };
                if declarators.is_empty()
                    && allow_function
                    && matches!(declarator.derived.first(), Some(Derived::Function(_)))
                {
                    let knr =
                        matches!(declarator.derived.first(), Some(Derived::Function(f)) if !f.identifiers.is_empty());
                    if self.is(Punct::LBrace) || (knr && self.is_decl_start()) {
                        self.declare(&name, false);
                        return self.function_definition(specs, declarator, start).map(DeclOrFunc::Func);
                    }
                }
                let asm_label = self.asm_label()?;
                self.attributes(&mut declarator.attrs)?;
                self.declare(&name, is_typedef);
                let init = if self.eat(Punct::Assign) {
                    Some(self.initializer()?)
                } else {
                    None
                };
                declarators.push(InitDeclarator {
                    declarator,
                    init,
                    asm_label,
                });
                if !self.eat(Punct::Comma) {
                    break;
                }
            }
        }
        if !self.is(Punct::Semi) {
            return Err(self.error_here("expected ';' after declaration"));
        }
        self.advance();
        Ok(DeclOrFunc::Decl(Declaration {
            specs,
            declarators,
            static_assert: None,
            span: self.span_from(start),
        }))
    }

    fn function_definition(&mut self, specs: DeclSpecs, declarator: Declarator, start: Span) -> PResult<FunctionDef> {
        self.push_scope();
        let r = (|| {
            let mut old_style_params = Vec::new();
            while self.is_decl_start() {
                old_style_params.push(self.declaration()?);
            }
            if let Some(Derived::Function(sig)) = declarator.derived.first() {
                for p in &sig.params {
                    if let Some((n, _)) = &p.declarator.name {
                        self.declare(n, false);
                    }
                }
                for (n, _) in &sig.identifiers {
                    self.declare(n, false);
                }
            }
            let body = self.compound_body()?;
            Ok(FunctionDef {
                specs,
                declarator,
                old_style_params,
                body,
                span: self.span_from(start),
            })
        })();
        self.pop_scope();
        r
    }
}

/// Specifiers meaning plain `int` (for `_Static_assert` items and C89 implicit int).
fn implicit_int_specs(span: Span) -> DeclSpecs {
    DeclSpecs {
        storage: None,
        thread_local: false,
        quals: TypeQuals::default(),
        is_inline: false,
        is_noreturn: false,
        base: BaseType::Int,
        align: Vec::new(),
        attrs: Vec::new(),
        span,
    }
}
