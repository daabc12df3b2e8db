//! Every text inside a value serde can write, visited in place: the check that files from
//! outside hold no control character walks a catalogue or a rules file at each start, and
//! writing each value out as RON to read it back (what it did before) cost ~0.8 ms of a start.

use serde::ser::{self, Serialize};

/// The first string or char inside `value` for which `hit` holds, if any. A value whose
/// `Serialize` fails (none of srtrack's do) yields `None`.
pub fn first_text<T: Serialize + ?Sized>(value: &T, hit: fn(&str) -> bool) -> Option<String> {
    match value.serialize(&mut Finder { hit }) {
        Err(Stop::Found(text)) => Some(text),
        Ok(()) | Err(Stop::Failed) => None,
    }
}

struct Finder {
    hit: fn(&str) -> bool,
}

/// Why the walk stopped early: a text was found (the walk's answer), or a value failed to
/// serialize.
#[derive(Debug)]
enum Stop {
    Found(String),
    Failed,
}

impl std::fmt::Display for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Stop::Found(text) => write!(f, "found {text:?}"),
            Stop::Failed => f.write_str("the value did not serialize"),
        }
    }
}

impl std::error::Error for Stop {}

impl ser::Error for Stop {
    fn custom<M: std::fmt::Display>(_: M) -> Self {
        Stop::Failed
    }
}

type Done = Result<(), Stop>;

impl Finder {
    fn text(&self, text: &str) -> Done {
        if (self.hit)(text) {
            Err(Stop::Found(text.to_owned()))
        } else {
            Ok(())
        }
    }
}

/// Serializer methods for values that hold no text: nothing to visit.
macro_rules! skip {
    ($($method:ident: $ty:ty),* $(,)?) => {
        $(fn $method(self, _: $ty) -> Done {
            Ok(())
        })*
    };
}

/// The compound serializers: each part walked with the same finder.
macro_rules! walk_each {
    ($($kind:ident::$method:ident),* $(,)?) => {$(
        impl ser::$kind for &mut Finder {
            type Ok = ();
            type Error = Stop;
            fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Done {
                value.serialize(&mut **self)
            }
            fn end(self) -> Done {
                Ok(())
            }
        }
    )*};
    (keyed $kind:ident) => {
        impl ser::$kind for &mut Finder {
            type Ok = ();
            type Error = Stop;
            fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Done {
                key.serialize(&mut **self)
            }
            fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Done {
                value.serialize(&mut **self)
            }
            fn end(self) -> Done {
                Ok(())
            }
        }
    };
    (named $($kind:ident),*) => {$(
        impl ser::$kind for &mut Finder {
            type Ok = ();
            type Error = Stop;
            fn serialize_field<T: Serialize + ?Sized>(
                &mut self,
                _: &'static str,
                value: &T,
            ) -> Done {
                value.serialize(&mut **self)
            }
            fn end(self) -> Done {
                Ok(())
            }
        }
    )*};
}

impl ser::Serializer for &mut Finder {
    type Ok = ();
    type Error = Stop;
    type SerializeSeq = Self;
    type SerializeTuple = Self;
    type SerializeTupleStruct = Self;
    type SerializeTupleVariant = Self;
    type SerializeMap = Self;
    type SerializeStruct = Self;
    type SerializeStructVariant = Self;

    skip!(
        serialize_bool: bool,
        serialize_i8: i8,
        serialize_i16: i16,
        serialize_i32: i32,
        serialize_i64: i64,
        serialize_u8: u8,
        serialize_u16: u16,
        serialize_u32: u32,
        serialize_u64: u64,
        serialize_f32: f32,
        serialize_f64: f64,
        serialize_bytes: &[u8],
        serialize_unit_struct: &'static str,
    );
    fn serialize_char(self, c: char) -> Done {
        self.text(c.encode_utf8(&mut [0; 4]))
    }
    fn serialize_str(self, text: &str) -> Done {
        self.text(text)
    }
    fn serialize_none(self) -> Done {
        Ok(())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Done {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Done {
        Ok(())
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, _: &'static str) -> Done {
        Ok(())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, value: &T) -> Done {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        value: &T,
    ) -> Done {
        value.serialize(self)
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self, Stop> {
        Ok(self)
    }
    fn serialize_tuple(self, _: usize) -> Result<Self, Stop> {
        Ok(self)
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Self, Stop> {
        Ok(self)
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self, Stop> {
        Ok(self)
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self, Stop> {
        Ok(self)
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self, Stop> {
        Ok(self)
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self, Stop> {
        Ok(self)
    }
}

// Every part of a compound value is walked in turn, named or not.
walk_each!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field,
);
walk_each!(keyed SerializeMap);
walk_each!(named SerializeStruct, SerializeStructVariant);

#[cfg(test)]
mod tests {
    use super::first_text;
    use std::collections::BTreeMap;

    #[derive(serde::Serialize)]
    enum Shape {
        Plain,
        Named(String),
        Pair(u8, String),
        Fields {
            label: Option<String>,
            marks: Vec<char>,
        },
    }

    #[derive(serde::Serialize)]
    struct Outer {
        n: u32,
        shapes: Vec<Shape>,
        by_name: BTreeMap<String, (bool, String)>,
    }

    fn has_x(text: &str) -> bool {
        text.contains('x')
    }

    fn outer(shapes: Vec<Shape>, by_name: &[(&str, &str)]) -> Outer {
        Outer {
            n: 3,
            shapes,
            by_name: by_name
                .iter()
                .map(|(k, v)| ((*k).to_owned(), (true, (*v).to_owned())))
                .collect(),
        }
    }

    #[test]
    fn a_text_is_found_in_every_shape_serde_writes() {
        let fields = |label: Option<&str>, marks: &[char]| Shape::Fields {
            label: label.map(str::to_owned),
            marks: marks.to_vec(),
        };
        let cases = [
            (vec![Shape::Named("axe".into())], vec![], Some("axe")),
            (vec![Shape::Pair(1, "box".into())], vec![], Some("box")),
            (vec![fields(Some("xi"), &[])], vec![], Some("xi")),
            (vec![fields(None, &['a', 'x'])], vec![], Some("x")),
            (vec![], vec![("key", "x-ray")], Some("x-ray")),
            (vec![], vec![("max", "value")], Some("max")),
            (
                vec![
                    Shape::Plain,
                    Shape::Named("a".into()),
                    fields(Some("b"), &['c']),
                ],
                vec![("d", "e")],
                None,
            ),
        ];
        for (shapes, map, found) in cases {
            let value = outer(shapes, &map);
            assert_eq!(first_text(&value, has_x).as_deref(), found);
        }
    }

    #[test]
    fn the_first_text_found_is_the_first_written() {
        let value = outer(
            vec![Shape::Named("one x".into()), Shape::Named("two x".into())],
            &[("three x", "four x")],
        );
        assert_eq!(first_text(&value, has_x).as_deref(), Some("one x"));
    }
}
