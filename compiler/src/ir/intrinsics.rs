//! Target-independent intrinsics (`IntrinsicOp`). Only the few that real C
//! programs in our corpus need: fences, pause, scalar sqrt/fabs, and the
//! frame/return/thread pointer queries. SIMD, AES and CRC ops are added when a
//! real program needs them (docs/ir-design.md#intrinsics).

macro_rules! intrinsics {
    ($($(#[$m:meta])* $v:ident = $s:literal, pure = $p:literal, args = $n:literal;)*) => {
        /// An intrinsic operation; each backend emits native instructions for it.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum IntrinsicOp { $($(#[$m])* $v),* }
        impl IntrinsicOp {
            pub const ALL: &'static [IntrinsicOp] = &[$(IntrinsicOp::$v),*];
            pub fn name(self) -> &'static str { match self { $(IntrinsicOp::$v => $s),* } }
            pub fn from_name(s: &str) -> Option<IntrinsicOp> {
                match s { $($s => Some(IntrinsicOp::$v),)* _ => None }
            }
            /// No side effects: removable when the result is unused.
            pub fn is_pure(self) -> bool { match self { $(IntrinsicOp::$v => $p),* } }
            /// Number of operands the intrinsic takes.
            pub fn num_args(self) -> usize { match self { $(IntrinsicOp::$v => $n),* } }
        }
    };
}

intrinsics! {
    /// Load fence.
    Lfence = "lfence", pure = false, args = 0;
    /// Full memory fence.
    Mfence = "mfence", pure = false, args = 0;
    /// Store fence.
    Sfence = "sfence", pure = false, args = 0;
    /// Spin-loop hint.
    Pause = "pause", pure = false, args = 0;
    /// Flush the cache line holding the pointer operand.
    Clflush = "clflush", pure = false, args = 1;
    SqrtF32 = "sqrtf32", pure = true, args = 1;
    SqrtF64 = "sqrtf64", pure = true, args = 1;
    FabsF32 = "fabsf32", pure = true, args = 1;
    FabsF64 = "fabsf64", pure = true, args = 1;
    /// `__builtin_frame_address(0)`.
    FrameAddress = "frameaddress", pure = false, args = 0;
    /// `__builtin_return_address(0)`.
    ReturnAddress = "returnaddress", pure = false, args = 0;
    /// `__builtin_thread_pointer()`.
    ThreadPointer = "threadpointer", pure = false, args = 0;
}

impl IntrinsicOp {
    /// The type of the value produced, if any.
    pub fn result_type(self) -> Option<super::types::IrType> {
        use super::types::IrType;
        match self {
            IntrinsicOp::SqrtF32 | IntrinsicOp::FabsF32 => Some(IrType::F32),
            IntrinsicOp::SqrtF64 | IntrinsicOp::FabsF64 => Some(IrType::F64),
            IntrinsicOp::FrameAddress | IntrinsicOp::ReturnAddress | IntrinsicOp::ThreadPointer => Some(IrType::Ptr),
            _ => None,
        }
    }
}
