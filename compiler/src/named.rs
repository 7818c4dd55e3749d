//! `named_enum!`: a fieldless enum whose variants each have one textual
//! name, written once. The macro emits the enum as declared (attributes,
//! derives and doc comments pass through) plus
//!
//! - `ALL`: every variant in declaration order, as an array;
//! - `name(self) -> &'static str` and `from_name(&str) -> Option<Self>`;
//! - `Display`, which prints the name.
//!
//! It stands in for the hand-written `ALL` / `name` / `from_name` triples
//! (strum's `EnumIter`, `IntoStaticStr` and `EnumString` do the same with a
//! proc-macro dependency). Used for injected bugs, pass names and pipeline
//! configurations here, and for the oracle's stages, outcome classes and
//! generator emphases.
//!
//! ```
//! phicc::named_enum! {
//!     /// A colour.
//!     #[derive(Clone, Copy, Debug, PartialEq, Eq)]
//!     pub enum Colour {
//!         Red = "red",
//!         /// Darker.
//!         DarkBlue = "dark-blue",
//!     }
//! }
//! assert_eq!(Colour::ALL, [Colour::Red, Colour::DarkBlue]);
//! assert_eq!(Colour::DarkBlue.name(), "dark-blue");
//! assert_eq!(Colour::from_name("red"), Some(Colour::Red));
//! assert_eq!(Colour::from_name("green"), None);
//! assert_eq!(Colour::Red.to_string(), "red");
//! ```

/// Declares an enum with a name per variant; see the [module docs](crate::named).
#[macro_export]
macro_rules! named_enum {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident = $text:literal ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        $vis enum $name {
            $( $(#[$vmeta])* $variant ),*
        }

        impl $name {
            /// Every variant, in declaration order.
            pub const ALL: [$name; [$($text),*].len()] = [$($name::$variant),*];

            /// The variant's name (on command lines, in reports).
            pub fn name(self) -> &'static str {
                match self {
                    $( $name::$variant => $text ),*
                }
            }

            /// The variant called `name`.
            pub fn from_name(name: &str) -> Option<$name> {
                match name {
                    $( $text => Some($name::$variant), )*
                    _ => None,
                }
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.name())
            }
        }
    };
}

#[cfg(test)]
mod tests {
    crate::named_enum! {
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        enum Three {
            A = "a",
            B = "b-b",
            C = "c",
        }
    }

    #[test]
    fn names_round_trip_in_order() {
        assert_eq!(Three::ALL, [Three::A, Three::B, Three::C]);
        for t in Three::ALL {
            assert_eq!(Three::from_name(t.name()), Some(t));
            assert_eq!(t.to_string(), t.name());
        }
        assert_eq!(Three::B.name(), "b-b");
        assert_eq!(Three::from_name("d"), None);
    }
}
