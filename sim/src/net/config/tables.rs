//! Keys whose value must be a table. serde reads a struct, and an internally tagged enum
//! (its tag first), from an array too: `topology = ["mesh", 2, 2]` ran a 2-ary 2-mesh and
//! `cycles = [-1]` was refused as `cycles.max`. These refuse an array there, in serde's
//! wording for a wrong type ("expected a table"), at the array's position, so that the
//! message names the key. (The tagged tables inside `[workload]`, `pattern` and
//! `injection`, go through `workload::config::tagged_strict`, which refuses one too.)

use serde::de::{self, Deserialize, Deserializer, IntoDeserializer, Visitor};
use std::marker::PhantomData;

/// A value that must be a table (`#[serde(deserialize_with = "table_only")]`): a struct.
/// Any other value is refused as not a table, in serde's wording.
pub(crate) fn table_only<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    d.deserialize_any(Table::<T, false>(PhantomData))
}

/// `table_only` for an internally tagged enum: a value that is neither a table nor an array
/// goes to the enum, whose message `scenario::toml_error` words with the allowed kinds.
pub(crate) fn tagged_table_only<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    d.deserialize_any(Table::<T, true>(PhantomData))
}

/// An array of values that must each be a table (`[[key]]` entries, or an inline array of
/// inline tables): structs (`table_only`).
pub(crate) fn tables_only<'de, D, T>(d: D) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    let v: Vec<OnlyTable<T, false>> = Deserialize::deserialize(d)?;
    Ok(v.into_iter().map(|t| t.0).collect())
}

/// `tables_only` for internally tagged enums (`tagged_table_only`).
pub(crate) fn tagged_tables_only<'de, D, T>(d: D) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    let v: Vec<OnlyTable<T, true>> = Deserialize::deserialize(d)?;
    Ok(v.into_iter().map(|t| t.0).collect())
}

/// One value through `table_only` (`TAGGED`: `tagged_table_only`).
struct OnlyTable<T, const TAGGED: bool>(T);

impl<'de, T: Deserialize<'de>, const TAGGED: bool> Deserialize<'de> for OnlyTable<T, TAGGED> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(Table::<T, TAGGED>(PhantomData))
            .map(OnlyTable)
    }
}

/// What a value that is not a table gets: serde's wording for a wrong type, which
/// `scenario::toml_error` reads (it names the key).
pub(crate) const EXPECTED: &str = "a table";

/// The visitor: a table goes to `T`; an array is refused; another value goes to `T` when
/// `TAGGED` (its own wording), else is refused.
struct Table<T, const TAGGED: bool>(PhantomData<T>);

/// A scalar: to `T`'s deserializer when `TAGGED`, else refused as not a table.
macro_rules! scalar {
    ($($visit:ident: $t:ty => $unexpected:ident),*) => {$(
        fn $visit<E: de::Error>(self, v: $t) -> Result<T, E> {
            if TAGGED {
                T::deserialize(v.into_deserializer())
            } else {
                Err(E::invalid_type(de::Unexpected::$unexpected(v), &self))
            }
        }
    )*};
}

impl<'de, T: Deserialize<'de>, const TAGGED: bool> Visitor<'de> for Table<T, TAGGED> {
    type Value = T;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(EXPECTED)
    }
    fn visit_map<A: de::MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
        T::deserialize(de::value::MapAccessDeserializer::new(map))
    }
    fn visit_seq<A: de::SeqAccess<'de>>(self, _seq: A) -> Result<T, A::Error> {
        Err(de::Error::invalid_type(de::Unexpected::Seq, &self))
    }
    scalar!(visit_bool: bool => Bool, visit_i64: i64 => Signed, visit_u64: u64 => Unsigned, visit_f64: f64 => Float);
    fn visit_str<E: de::Error>(self, v: &str) -> Result<T, E> {
        if TAGGED {
            T::deserialize(v.to_string().into_deserializer())
        } else {
            Err(E::invalid_type(de::Unexpected::Str(v), &self))
        }
    }
}
