//! The serde side of [`super::value::parse`]: a visitor that asks `toml::de` for the
//! span of every key and value.
//!
//! A span is requested the way `toml::Spanned` requests it: by asking the deserializer
//! for a struct with serde_spanned's private name and field names. We learn those names
//! from `toml::Spanned` itself at run time (see [`Magic`]) instead of copying the
//! strings, so an update of the toml crates cannot silently break spans. Unlike
//! `toml::Spanned`, this visitor also accepts values that have no span — the implicit
//! tables created by dotted keys (`a.b = 1`) and by headers such as `[a.b]` — and gives
//! them the span of their key.

use super::value::Key;
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use std::fmt;
use std::ops::Range;

/// Deserializes scenario text into the raw spanned tree.
pub(super) fn deserialize(text: &str) -> Result<RawNode, toml::de::Error> {
    let magic = Magic::learn();
    let seed = NodeSeed { magic: &magic, fallback: 0..0 };
    seed.deserialize(toml::de::Deserializer::new(text))
}

/// The tree as deserialized, before dates are rejected (that needs the key path, which
/// the serde visitor does not know).
pub(super) enum Raw {
    Str(String),
    Int(i64),
    Float(f64),
    Bool(bool),
    Datetime(String),
    Array(Vec<RawNode>),
    Table(Vec<(Key, RawNode)>),
}

pub(super) struct RawNode {
    pub(super) raw: Raw,
    pub(super) span: Range<usize>,
}

/// The serde names that `toml::Spanned` and `toml::value::Datetime` use to talk to the
/// deserializer, captured from those types so that they are never spelled out here.
struct Magic {
    spanned_name: &'static str,
    spanned_fields: &'static [&'static str],
    datetime_field: &'static str,
}

impl Magic {
    fn learn() -> Magic {
        let (spanned_name, spanned_fields) = capture(<toml::Spanned<()> as serde::Deserialize>::deserialize);
        let (_, datetime_fields) = capture(<toml::value::Datetime as serde::Deserialize>::deserialize);
        Magic { spanned_name, spanned_fields, datetime_field: datetime_fields.first().copied().unwrap_or("") }
    }
    /// Which spanned field `name` is: 0 = start, 1 = end, 2 = value (serde_spanned's order).
    fn spanned_field(&self, name: &str) -> Option<usize> {
        self.spanned_fields.iter().position(|f| *f == name)
    }
}

fn capture<T>(deserialize: fn(Capture) -> Result<T, CaptureError>) -> (&'static str, &'static [&'static str]) {
    match deserialize(Capture) {
        Err(CaptureError(Some(names))) => names,
        // Only reachable if the toml crate stops using serde structs for spans; spans
        // would then all fall back to key positions, which tests catch.
        _ => ("", &[]),
    }
}

/// A deserializer that only records the struct name and fields it is asked for.
struct Capture;

#[derive(Debug)]
struct CaptureError(Option<(&'static str, &'static [&'static str])>);

impl fmt::Display for CaptureError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("capture")
    }
}
impl std::error::Error for CaptureError {}
impl de::Error for CaptureError {
    fn custom<T: fmt::Display>(_: T) -> Self {
        CaptureError(None)
    }
}

impl<'de> Deserializer<'de> for Capture {
    type Error = CaptureError;
    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, CaptureError> {
        Err(CaptureError(None))
    }
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, CaptureError> {
        Err(CaptureError(Some((name, fields))))
    }
    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes
        byte_buf option unit unit_struct newtype_struct seq tuple tuple_struct map enum
        identifier ignored_any
    }
}

/// Deserializes one value, asking for its span; `fallback` is used when there is none.
struct NodeSeed<'m> {
    magic: &'m Magic,
    fallback: Range<usize>,
}

impl<'de> DeserializeSeed<'de> for NodeSeed<'_> {
    type Value = RawNode;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<RawNode, D::Error> {
        let (name, fields) = (self.magic.spanned_name, self.magic.spanned_fields);
        d.deserialize_struct(name, fields, NodeVisitor(self))
    }
}

/// Deserializes the bare value inside a spanned wrapper.
struct ValueSeed<'m>(NodeSeed<'m>);

impl<'de> DeserializeSeed<'de> for ValueSeed<'_> {
    type Value = RawNode;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<RawNode, D::Error> {
        d.deserialize_any(NodeVisitor(self.0))
    }
}

struct NodeVisitor<'m>(NodeSeed<'m>);

impl NodeVisitor<'_> {
    fn leaf(&self, raw: Raw) -> RawNode {
        RawNode { raw, span: self.0.fallback.clone() }
    }
}

impl<'de> Visitor<'de> for NodeVisitor<'_> {
    type Value = RawNode;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a TOML value")
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<RawNode, E> {
        Ok(self.leaf(Raw::Bool(v)))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<RawNode, E> {
        Ok(self.leaf(Raw::Int(v)))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<RawNode, E> {
        let v = i64::try_from(v).map_err(|_| E::custom("integer out of range"))?;
        Ok(self.leaf(Raw::Int(v)))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<RawNode, E> {
        Ok(self.leaf(Raw::Float(v)))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<RawNode, E> {
        Ok(self.leaf(Raw::Str(v.to_string())))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<RawNode, E> {
        Ok(self.leaf(Raw::Str(v)))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<RawNode, A::Error> {
        let mut items = Vec::new();
        while let Some(item) =
            seq.next_element_seed(NodeSeed { magic: self.0.magic, fallback: self.0.fallback.clone() })?
        {
            items.push(item);
        }
        Ok(self.leaf(Raw::Array(items)))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RawNode, A::Error> {
        let magic = self.0.magic;
        let fallback = self.0.fallback.clone();
        let Some(first) = map.next_key_seed(KeySeed(magic))? else {
            return Ok(self.leaf(Raw::Table(Vec::new())));
        };
        if first.span.is_none() && magic.spanned_field(&first.name).is_some() {
            return read_spanned(magic, fallback, first.name, map);
        }
        if first.span.is_none() && first.name == magic.datetime_field {
            let text: String = map.next_value()?;
            return Ok(self.leaf(Raw::Datetime(text)));
        }
        // An ordinary table (one without a span of its own when we get here).
        let mut entries = Vec::new();
        let mut next = Some(first);
        while let Some(key) = next {
            let key = Key { span: key.span.unwrap_or_else(|| fallback.clone()), name: key.name };
            let value = map.next_value_seed(NodeSeed { magic, fallback: key.span.clone() })?;
            entries.push((key, value));
            next = map.next_key_seed(KeySeed(magic))?;
        }
        Ok(self.leaf(Raw::Table(entries)))
    }
}

/// Reads serde_spanned's `{start, end, value}` map, whose first key is already read.
fn read_spanned<'de, A: MapAccess<'de>>(
    magic: &Magic,
    fallback: Range<usize>,
    first: String,
    mut map: A,
) -> Result<RawNode, A::Error> {
    let (mut start, mut end, mut value) = (None::<usize>, None::<usize>, None::<RawNode>);
    let mut key = Some(first);
    while let Some(k) = key {
        match magic.spanned_field(&k) {
            Some(0) => start = Some(map.next_value()?),
            Some(1) => end = Some(map.next_value()?),
            Some(2) => {
                let span = match (start, end) {
                    (Some(s), Some(e)) => s..e,
                    _ => fallback.clone(),
                };
                value = Some(map.next_value_seed(ValueSeed(NodeSeed { magic, fallback: span }))?);
            }
            _ => return Err(de::Error::custom(format!("unexpected span field {k}"))),
        }
        key = map.next_key::<String>()?;
    }
    let mut node = value.ok_or_else(|| de::Error::custom("spanned value without a value"))?;
    if let (Some(s), Some(e)) = (start, end) {
        node.span = s..e;
    }
    Ok(node)
}

/// A key name and its span, if the deserializer gave one.
struct RawKey {
    name: String,
    span: Option<Range<usize>>,
}

struct KeySeed<'m>(&'m Magic);

impl<'de> DeserializeSeed<'de> for KeySeed<'_> {
    type Value = RawKey;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<RawKey, D::Error> {
        d.deserialize_struct(self.0.spanned_name, self.0.spanned_fields, KeyVisitor(self.0))
    }
}

struct KeyVisitor<'m>(&'m Magic);

impl<'de> Visitor<'de> for KeyVisitor<'_> {
    type Value = RawKey;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a key")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<RawKey, E> {
        Ok(RawKey { name: v.to_string(), span: None })
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RawKey, A::Error> {
        let (mut start, mut end, mut name) = (None::<usize>, None::<usize>, None::<String>);
        while let Some(k) = map.next_key::<String>()? {
            match self.0.spanned_field(&k) {
                Some(0) => start = Some(map.next_value()?),
                Some(1) => end = Some(map.next_value()?),
                Some(2) => name = Some(map.next_value()?),
                _ => return Err(de::Error::custom(format!("unexpected key field {k}"))),
            }
        }
        let name = name.ok_or_else(|| de::Error::custom("spanned key without a name"))?;
        let span = match (start, end) {
            (Some(s), Some(e)) => Some(s..e),
            _ => None,
        };
        Ok(RawKey { name, span })
    }
}
