//! Recursive-descent parser of the textual IR, module level: token helpers,
//! top-level items (strings, globals and their initializers, aliases, symbol
//! attributes, constructors, top-level asm) and function headers and bodies.
//! Instructions and terminators are in `parse_inst.rs`. Each parse function
//! carries its grammar rule (docs/ir.md has the whole grammar).
//!
//! The parser checks only what the data types cannot represent (bad tokens,
//! out-of-range numbers, duplicate block labels in one function); undefined
//! values and blocks are the verifier's business.

use super::lexer::{units_to_string, Spanned, Tok};
use super::printer::{default_next_value_id, type_from_word};
use super::ParseError;
use crate::ir::constants::IrConst;
use crate::ir::instruction::{BasicBlock, BlockId, Operand, Value};
use crate::ir::module::{GlobalInit, IrFunction, IrGlobal, IrModule, IrParam};
use crate::ir::types::{EightbyteClass, Hfa, IrType, RiscvFloatClass};
use rustc_hash::FxHashSet;

/// Nesting limit of `compound { ... }` initializers (keeps hostile input from
/// exhausting the stack).
const MAX_INIT_DEPTH: usize = 200;

pub(super) type PResult<T> = Result<T, ParseError>;

pub(super) struct Parser {
    toks: Vec<Spanned>,
    pos: usize,
}

/// Struct-passing annotations of one parameter or argument.
#[derive(Default)]
pub(super) struct AbiAnnot {
    pub size: Option<usize>,
    pub align: Option<usize>,
    pub classes: Vec<EightbyteClass>,
    pub riscv: Option<RiscvFloatClass>,
    pub hfa: Option<Hfa>,
    pub any: bool,
}

impl Parser {
    pub(super) fn new(toks: Vec<Spanned>) -> Parser {
        Parser { toks, pos: 0 }
    }

    // ---- token helpers ----

    fn at(&self, k: usize) -> &Spanned {
        let i = (self.pos + k).min(self.toks.len() - 1);
        &self.toks[i]
    }

    pub(super) fn peek(&self) -> &Tok {
        &self.at(0).tok
    }

    pub(super) fn peek_at(&self, k: usize) -> &Tok {
        &self.at(k).tok
    }

    pub(super) fn bump(&mut self) -> Tok {
        let t = self.at(0).tok.clone();
        if self.pos + 1 < self.toks.len() {
            self.pos += 1;
        }
        t
    }

    /// An error at the current token.
    pub(super) fn err(&self, message: impl Into<String>) -> ParseError {
        let t = self.at(0);
        ParseError {
            line: t.line,
            col: t.col,
            message: message.into(),
        }
    }

    /// "expected WHAT, found TOKEN" at the current token.
    pub(super) fn expected(&self, what: &str) -> ParseError {
        self.err(format!("expected {what}, found {}", self.peek().describe()))
    }

    pub(super) fn is_punct(&self, c: char) -> bool {
        *self.peek() == Tok::Punct(c)
    }

    pub(super) fn eat_punct(&mut self, c: char) -> bool {
        let hit = self.is_punct(c);
        if hit {
            self.bump();
        }
        hit
    }

    pub(super) fn expect_punct(&mut self, c: char) -> PResult<()> {
        if self.eat_punct(c) {
            Ok(())
        } else {
            Err(self.expected(&format!("'{c}'")))
        }
    }

    pub(super) fn is_word(&self, w: &str) -> bool {
        matches!(self.peek(), Tok::Ident(s) if s == w)
    }

    pub(super) fn eat_word(&mut self, w: &str) -> bool {
        let hit = self.is_word(w);
        if hit {
            self.bump();
        }
        hit
    }

    pub(super) fn expect_word(&mut self, w: &str) -> PResult<()> {
        if self.eat_word(w) {
            Ok(())
        } else {
            Err(self.expected(&format!("'{w}'")))
        }
    }

    pub(super) fn at_eol(&self) -> bool {
        matches!(self.peek(), Tok::Newline | Tok::Eof)
    }

    /// The end of an instruction or item line.
    pub(super) fn end_of_line(&mut self) -> PResult<()> {
        match self.peek() {
            Tok::Newline => {
                self.bump();
                Ok(())
            }
            Tok::Eof => Ok(()),
            _ => Err(self.expected("end of line")),
        }
    }

    pub(super) fn skip_newlines(&mut self) {
        while *self.peek() == Tok::Newline {
            self.bump();
        }
    }

    pub(super) fn word(&mut self, what: &str) -> PResult<String> {
        match self.peek() {
            Tok::Ident(s) => {
                let s = s.clone();
                self.bump();
                Ok(s)
            }
            _ => Err(self.expected(what)),
        }
    }

    pub(super) fn value(&mut self) -> PResult<Value> {
        match *self.peek() {
            Tok::Value(v) => {
                self.bump();
                Ok(Value(v))
            }
            _ => Err(self.expected("a value '%N'")),
        }
    }

    pub(super) fn is_block_ref(&self) -> bool {
        matches!(self.peek(), Tok::Ident(s) if block_number(s).is_some())
    }

    /// `bbN`
    pub(super) fn block(&mut self) -> PResult<BlockId> {
        match self.peek() {
            Tok::Ident(s) => match block_number(s) {
                Some(Some(n)) => {
                    self.bump();
                    Ok(BlockId(n))
                }
                Some(None) => Err(self.err("block number does not fit in 32 bits")),
                None => Err(self.expected("a block 'bbN'")),
            },
            _ => Err(self.expected("a block 'bbN'")),
        }
    }

    pub(super) fn symbol(&mut self) -> PResult<String> {
        match self.peek() {
            Tok::Symbol(s) => {
                let s = s.clone();
                self.bump();
                Ok(s)
            }
            _ => Err(self.expected("a symbol '@name'")),
        }
    }

    pub(super) fn ty(&mut self) -> PResult<IrType> {
        match self.peek() {
            Tok::Ident(s) => match type_from_word(s) {
                Some(t) => {
                    self.bump();
                    Ok(t)
                }
                None => Err(self.expected("a type")),
            },
            _ => Err(self.expected("a type")),
        }
    }

    pub(super) fn is_type(&self) -> bool {
        matches!(self.peek(), Tok::Ident(s) if type_from_word(s).is_some())
    }

    /// Raw code units of a string literal.
    pub(super) fn units(&mut self) -> PResult<Vec<u32>> {
        match self.peek() {
            Tok::Str(u) => {
                let u = u.clone();
                self.bump();
                Ok(u)
            }
            _ => Err(self.expected("a string literal")),
        }
    }

    /// A string literal whose code units must all be chars.
    pub(super) fn string(&mut self) -> PResult<String> {
        let units = self.units()?;
        units_to_string(&units).ok_or_else(|| self.err_prev("string literal holds a code unit that is not a char"))
    }

    /// An error at the previous token.
    pub(super) fn err_prev(&self, message: &str) -> ParseError {
        let t = &self.toks[self.pos.saturating_sub(1)];
        ParseError {
            line: t.line,
            col: t.col,
            message: message.into(),
        }
    }

    /// A bare word or a string literal (asm names, C labels).
    pub(super) fn name(&mut self) -> PResult<String> {
        match self.peek() {
            Tok::Ident(_) => self.word("a name"),
            Tok::Str(_) => self.string(),
            _ => Err(self.expected("a name or string literal")),
        }
    }

    pub(super) fn constant(&mut self) -> PResult<IrConst> {
        match self.peek() {
            Tok::Const(c) => {
                let c = *c;
                self.bump();
                Ok(c)
            }
            Tok::Ident(s) if s == "zero" => {
                self.bump();
                Ok(IrConst::Zero)
            }
            _ => Err(self.expected("a constant (like 5i32, 1.5f64 or zero)")),
        }
    }

    /// `%N` or a constant.
    pub(super) fn operand(&mut self) -> PResult<Operand> {
        match self.peek() {
            Tok::Value(_) => self.value().map(Operand::Value),
            Tok::Const(_) => self.constant().map(Operand::Const),
            Tok::Ident(s) if s == "zero" => self.constant().map(Operand::Const),
            _ => Err(self.expected("an operand (a value '%N' or a constant)")),
        }
    }

    /// A bare integer as sign and magnitude.
    fn int(&mut self, what: &str) -> PResult<(bool, u128)> {
        match *self.peek() {
            Tok::Int { neg, mag } => {
                self.bump();
                Ok((neg, mag))
            }
            _ => Err(self.expected(what)),
        }
    }

    pub(super) fn unsigned(&mut self, max: u128, what: &str) -> PResult<u128> {
        match self.int(what)? {
            (false, m) if m <= max => Ok(m),
            _ => Err(self.err_prev(&format!("{what} out of range (0 to {max})"))),
        }
    }

    pub(super) fn usize_(&mut self, what: &str) -> PResult<usize> {
        self.unsigned(usize::MAX as u128, what).map(|v| v as usize)
    }

    pub(super) fn i64_(&mut self, what: &str) -> PResult<i64> {
        match self.int(what)? {
            (false, m) if m <= i64::MAX as u128 => Ok(m as i64),
            (true, m) if m <= 1u128 << 63 => Ok(0u64.wrapping_sub(m as u64) as i64),
            _ => Err(self.err_prev(&format!("{what} does not fit in 64 bits"))),
        }
    }

    /// `[ item, item, ... ]`
    pub(super) fn bracket_list<T>(&mut self, mut item: impl FnMut(&mut Self) -> PResult<T>) -> PResult<Vec<T>> {
        self.delimited('[', ']', &mut item)
    }

    /// `( item, item, ... )`
    pub(super) fn paren_list<T>(&mut self, mut item: impl FnMut(&mut Self) -> PResult<T>) -> PResult<Vec<T>> {
        self.delimited('(', ')', &mut item)
    }

    fn delimited<T>(
        &mut self,
        open: char,
        close: char,
        item: &mut impl FnMut(&mut Self) -> PResult<T>,
    ) -> PResult<Vec<T>> {
        self.expect_punct(open)?;
        let mut out = Vec::new();
        if self.eat_punct(close) {
            return Ok(out);
        }
        loop {
            out.push(item(self)?);
            if self.eat_punct(close) {
                return Ok(out);
            }
            if !self.eat_punct(',') {
                return Err(self.expected(&format!("',' or '{close}'")));
            }
        }
    }

    pub(super) fn class(&mut self) -> PResult<EightbyteClass> {
        match self.peek() {
            Tok::Ident(s) => match EightbyteClass::from_name(s) {
                Some(c) => {
                    self.bump();
                    Ok(c)
                }
                None => Err(self.expected("an eightbyte class (none int sse mem)")),
            },
            _ => Err(self.expected("an eightbyte class (none int sse mem)")),
        }
    }

    pub(super) fn classes(&mut self) -> PResult<Vec<EightbyteClass>> {
        self.bracket_list(|p| p.class())
    }

    fn float_kind(&mut self) -> PResult<bool> {
        if self.eat_word("f64") {
            Ok(true)
        } else if self.eat_word("f32") {
            Ok(false)
        } else {
            Err(self.expected("'f32' or 'f64'"))
        }
    }

    fn small(&mut self, what: &str) -> PResult<u8> {
        self.expect_word(what)?;
        self.unsigned(u8::MAX as u128, what).map(|v| v as u8)
    }

    /// riscv-class := onefloat(F) | twofloats(F, F) | floatint(F, size N, offset N)
    ///              | intfloat(size N, F, offset N)
    pub(super) fn riscv_class(&mut self) -> PResult<RiscvFloatClass> {
        let w = self.word("a RISC-V float class (onefloat twofloats floatint intfloat)")?;
        self.expect_punct('(')?;
        let c = match w.as_str() {
            "onefloat" => RiscvFloatClass::OneFloat {
                is_double: self.float_kind()?,
            },
            "twofloats" => {
                let lo_double = self.float_kind()?;
                self.expect_punct(',')?;
                RiscvFloatClass::TwoFloats {
                    lo_double,
                    hi_double: self.float_kind()?,
                }
            }
            "floatint" => {
                let float_double = self.float_kind()?;
                self.expect_punct(',')?;
                let int_size = self.small("size")?;
                self.expect_punct(',')?;
                RiscvFloatClass::FloatInt {
                    float_double,
                    int_size,
                    int_offset: self.small("offset")?,
                }
            }
            "intfloat" => {
                let int_size = self.small("size")?;
                self.expect_punct(',')?;
                let float_double = self.float_kind()?;
                self.expect_punct(',')?;
                RiscvFloatClass::IntFloat {
                    int_size,
                    float_double,
                    float_offset: self.small("offset")?,
                }
            }
            _ => return Err(self.err_prev("expected a RISC-V float class (onefloat twofloats floatint intfloat)")),
        };
        self.expect_punct(')')?;
        Ok(c)
    }

    /// hfa := hfa(F, N) with F one of f32 f64 f128 and N the member count
    pub(super) fn hfa(&mut self) -> PResult<Hfa> {
        self.expect_punct('(')?;
        let base = self.ty()?;
        if !base.is_float() {
            return Err(self.err_prev("an HFA's base type is f32, f64 or f128"));
        }
        self.expect_punct(',')?;
        let count = self.unsigned(u8::MAX as u128, "HFA member count")? as u8;
        self.expect_punct(')')?;
        Ok(Hfa { base, count })
    }

    /// abi-annot := { size N | align N | classes [C, ...] | riscv RISCV-CLASS | hfa HFA }
    pub(super) fn abi_annotations(&mut self) -> PResult<AbiAnnot> {
        let mut a = AbiAnnot::default();
        loop {
            if self.eat_word("size") {
                a.size = Some(self.usize_("struct size")?);
            } else if self.eat_word("align") {
                a.align = Some(self.usize_("struct alignment")?);
            } else if self.eat_word("classes") {
                a.classes = self.classes()?;
            } else if self.eat_word("riscv") {
                a.riscv = Some(self.riscv_class()?);
            } else if self.eat_word("hfa") {
                a.hfa = Some(self.hfa()?);
            } else {
                return Ok(a);
            }
            a.any = true;
        }
    }

    // ---- module ----

    /// module := { item NEWLINE }
    pub(super) fn module(&mut self) -> PResult<IrModule> {
        let mut m = IrModule::default();
        loop {
            self.skip_newlines();
            if *self.peek() == Tok::Eof {
                return Ok(m);
            }
            let w = match self.peek() {
                Tok::Ident(w) => w.clone(),
                _ => return Err(self.expected("a top-level item (define, declare, global, string, ...)")),
            };
            match w.as_str() {
                "define" | "declare" => {
                    let f = self.function()?;
                    m.functions.push(f);
                }
                "global" => {
                    let g = self.global()?;
                    m.globals.push(g);
                }
                "string" | "wstring" | "string16" => self.string_literal(&mut m)?,
                "asm" => {
                    self.bump();
                    let s = self.string()?;
                    m.toplevel_asm.push(s);
                }
                "symbol" => {
                    self.bump();
                    let name = self.symbol()?;
                    let (mut weak, mut vis) = (false, None);
                    loop {
                        if self.eat_word("weak") {
                            weak = true;
                        } else if self.eat_word("visibility") {
                            vis = Some(self.string()?);
                        } else {
                            break;
                        }
                    }
                    m.symbol_attrs.push((name, weak, vis));
                }
                "alias" => {
                    self.bump();
                    let a = self.symbol()?;
                    self.expect_punct('=')?;
                    let t = self.symbol()?;
                    let weak = self.eat_word("weak");
                    m.aliases.push((a, t, weak));
                }
                "constructor" => {
                    self.bump();
                    let s = self.symbol()?;
                    m.constructors.push(s);
                }
                "destructor" => {
                    self.bump();
                    let s = self.symbol()?;
                    m.destructors.push(s);
                }
                _ => return Err(self.expected("a top-level item (define, declare, global, string, ...)")),
            }
            self.end_of_line()?;
        }
    }

    /// string-item := (string | wstring | string16) SYMBOL = STRING
    fn string_literal(&mut self, m: &mut IrModule) -> PResult<()> {
        let kind = self.word("string kind")?;
        let label = self.symbol()?;
        self.expect_punct('=')?;
        match kind.as_str() {
            "string" => {
                let s = self.string()?;
                m.string_literals.push((label, s));
            }
            "wstring" => {
                let u = self.units()?;
                m.wide_string_literals.push((label, u));
            }
            _ => {
                let u = self.units16()?;
                m.char16_string_literals.push((label, u));
            }
        }
        Ok(())
    }

    fn units16(&mut self) -> PResult<Vec<u16>> {
        let u = self.units()?;
        u.iter()
            .map(|&c| u16::try_from(c).ok())
            .collect::<Option<Vec<u16>>>()
            .ok_or_else(|| self.err_prev("string16 literal holds a code unit above 0xffff"))
    }

    /// global := global SYMBOL : TYPE , size N , align N { global-flag } [ = init ]
    fn global(&mut self) -> PResult<IrGlobal> {
        self.expect_word("global")?;
        let mut g = IrGlobal {
            name: self.symbol()?,
            ..IrGlobal::default()
        };
        self.expect_punct(':')?;
        g.ty = self.ty()?;
        self.expect_punct(',')?;
        self.expect_word("size")?;
        g.size = self.usize_("global size")?;
        self.expect_punct(',')?;
        self.expect_word("align")?;
        g.align = self.usize_("global alignment")?;
        while let Tok::Ident(w) = self.peek() {
            let w = w.clone();
            let flag = match w.as_str() {
                "static" => &mut g.is_static,
                "extern" => &mut g.is_extern,
                "common" => &mut g.is_common,
                "weak" => &mut g.is_weak,
                "const" => &mut g.is_const,
                "threadlocal" => &mut g.is_thread_local,
                "used" => &mut g.is_used,
                "explicitalign" => &mut g.has_explicit_align,
                "section" => {
                    self.bump();
                    g.section = Some(self.string()?);
                    continue;
                }
                "visibility" => {
                    self.bump();
                    g.visibility = Some(self.string()?);
                    continue;
                }
                _ => return Err(self.expected("a global attribute, '=' or end of line")),
            };
            *flag = true;
            self.bump();
        }
        if self.eat_punct('=') {
            g.init = self.init(0)?;
        }
        Ok(g)
    }

    /// init := zero | scalar CONST | array [CONST, ...] | string STRING | wstring STRING
    ///       | string16 STRING | addr SYMBOL [(+|-) N] | compound { init, ... }
    ///       | labeldiff SYMBOL - SYMBOL size N
    fn init(&mut self, depth: usize) -> PResult<GlobalInit> {
        if depth > MAX_INIT_DEPTH {
            return Err(self.err("initializer nested too deeply"));
        }
        let what = "an initializer (zero scalar array string wstring string16 addr compound labeldiff)";
        let w = self.word(what)?;
        Ok(match w.as_str() {
            "zero" => GlobalInit::Zero,
            "scalar" => GlobalInit::Scalar(self.constant()?),
            "array" => GlobalInit::Array(self.bracket_list(|p| p.constant())?),
            "string" => GlobalInit::String(self.string()?),
            "wstring" => GlobalInit::WideString(self.units()?),
            "string16" => GlobalInit::Char16String(self.units16()?),
            "addr" => {
                let name = self.symbol()?;
                match self.peek() {
                    Tok::Punct('+') => {
                        self.bump();
                        let off = self.unsigned(i64::MAX as u128, "offset")? as i64;
                        GlobalInit::GlobalAddrOffset(name, off)
                    }
                    Tok::Punct('-') => {
                        self.bump();
                        let mag = self.unsigned(1u128 << 63, "offset")? as u64;
                        GlobalInit::GlobalAddrOffset(name, 0u64.wrapping_sub(mag) as i64)
                    }
                    Tok::Int { .. } => GlobalInit::GlobalAddrOffset(name, self.i64_("offset")?),
                    _ => GlobalInit::GlobalAddr(name),
                }
            }
            "compound" => {
                self.expect_punct('{')?;
                let mut items = Vec::new();
                if !self.eat_punct('}') {
                    loop {
                        items.push(self.init(depth + 1)?);
                        if self.eat_punct('}') {
                            break;
                        }
                        if !self.eat_punct(',') {
                            return Err(self.expected("',' or '}'"));
                        }
                    }
                }
                GlobalInit::Compound(items)
            }
            "labeldiff" => {
                let a = self.symbol()?;
                self.expect_punct('-')?;
                let b = self.symbol()?;
                self.expect_word("size")?;
                GlobalInit::GlobalLabelDiff(a, b, self.usize_("label difference size")?)
            }
            _ => return Err(self.err_prev(&format!("expected {what}"))),
        })
    }

    // ---- functions ----

    /// function := (define | declare) SYMBOL ( [param {, param}] [, ...] ) [-> TYPE]
    ///             { fn-attr } [ { NEWLINE { block } } ]
    /// param := TYPE abi-annot | ...
    fn function(&mut self) -> PResult<IrFunction> {
        let kw = self.word("'define' or 'declare'")?;
        let mut f = IrFunction {
            is_declaration: kw == "declare",
            name: self.symbol()?,
            ..IrFunction::default()
        };
        self.expect_punct('(')?;
        if !self.eat_punct(')') {
            loop {
                if *self.peek() == Tok::Ellipsis {
                    self.bump();
                    f.is_variadic = true;
                    self.expect_punct(')').map_err(|_| self.expected("')' after '...'"))?;
                    break;
                }
                let ty = self.ty()?;
                let a = self.abi_annotations()?;
                f.params.push(IrParam {
                    ty,
                    struct_size: a.size,
                    struct_align: a.align,
                    struct_eightbyte_classes: a.classes,
                    riscv_float_class: a.riscv,
                    aarch64_hfa: a.hfa,
                });
                if self.eat_punct(')') {
                    break;
                }
                if !self.eat_punct(',') {
                    return Err(self.expected("',' or ')'"));
                }
            }
        }
        if *self.peek() == Tok::Arrow {
            self.bump();
            f.return_type = self.ty()?;
        }
        let mut next_value: Option<u32> = None;
        self.function_attrs(&mut f, &mut next_value)?;
        if self.eat_punct('{') {
            // `{}` on one line is an empty body; otherwise blocks start on the next line.
            if !self.eat_punct('}') {
                self.end_of_line()?;
                self.body(&mut f)?;
            }
        } else if !f.is_declaration {
            return Err(self.expected("'{' (a 'define' needs a body; use 'declare' for a declaration)"));
        }
        f.next_value_id = match next_value {
            Some(n) => n,
            None => default_next_value_id(&f),
        };
        Ok(f)
    }

    /// fn-attr := static | inline | alwaysinline | noinline | gnuinline | weak | used
    ///          | fastcall | naked | sret | inlinedcalls | section STRING | visibility STRING
    ///          | retclasses [C, ...] | paramallocas [%N, ...] | initlabels [bbN, ...] | nextvalue N
    fn function_attrs(&mut self, f: &mut IrFunction, next_value: &mut Option<u32>) -> PResult<()> {
        loop {
            let w = match self.peek() {
                Tok::Ident(w) => w.clone(),
                _ => return Ok(()),
            };
            let flag = match w.as_str() {
                "static" => &mut f.is_static,
                "inline" => &mut f.is_inline,
                "alwaysinline" => &mut f.is_always_inline,
                "noinline" => &mut f.is_noinline,
                "gnuinline" => &mut f.is_gnu_inline_def,
                "weak" => &mut f.is_weak,
                "used" => &mut f.is_used,
                "fastcall" => &mut f.is_fastcall,
                "naked" => &mut f.is_naked,
                "sret" => &mut f.uses_sret,
                "inlinedcalls" => &mut f.has_inlined_calls,
                _ => {
                    self.bump();
                    match w.as_str() {
                        "section" => f.section = Some(self.string()?),
                        "visibility" => f.visibility = Some(self.string()?),
                        "retclasses" => f.ret_eightbyte_classes = self.classes()?,
                        "paramallocas" => f.param_alloca_values = self.bracket_list(|p| p.value())?,
                        "initlabels" => f.global_init_label_blocks = self.bracket_list(|p| p.block())?,
                        "nextvalue" => *next_value = Some(self.unsigned(u32::MAX as u128, "nextvalue")? as u32),
                        _ => return Err(self.err_prev(&format!("unknown function attribute '{w}'"))),
                    }
                    continue;
                }
            };
            *flag = true;
            self.bump();
        }
    }

    /// body := { label : NEWLINE { instruction NEWLINE } terminator NEWLINE } }
    fn body(&mut self, f: &mut IrFunction) -> PResult<()> {
        let mut seen: FxHashSet<BlockId> = FxHashSet::default();
        loop {
            self.skip_newlines();
            if self.eat_punct('}') {
                return Ok(());
            }
            if !(self.is_block_ref() && *self.peek_at(1) == Tok::Punct(':')) {
                return Err(self.expected("a block label 'bbN:' or '}'"));
            }
            let label = self.block()?;
            if !seen.insert(label) {
                return Err(self.err_prev(&format!("duplicate block label {label} in function")));
            }
            self.bump(); // ':'
            let mut block = BasicBlock::new(label);
            loop {
                self.skip_newlines();
                if let Some(t) = self.terminator()? {
                    block.terminator = t;
                    self.end_of_line()?;
                    break;
                }
                let at_label = self.is_block_ref() && *self.peek_at(1) == Tok::Punct(':');
                if at_label || self.is_punct('}') || *self.peek() == Tok::Eof {
                    return Err(self.expected(&format!("an instruction or a terminator to end block {label}")));
                }
                block.instructions.push(self.instruction()?);
                self.end_of_line()?;
            }
            f.blocks.push(block);
        }
    }
}

/// `Some(Some(n))` for `bbN`, `Some(None)` when N is too large, `None` when not a block word.
fn block_number(s: &str) -> Option<Option<u32>> {
    let digits = s.strip_prefix("bb")?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(digits.parse::<u32>().ok())
}
