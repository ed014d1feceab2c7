//! CSV output: every report exposes flat rows (structs of scalars) that the `csv` crate
//! writes with a header taken from the field names.

use serde::Serialize;
use std::io::Write;

/// A report that can be written as one CSV table.
pub trait CsvTable {
    /// One flat row (scalars and `Option`s only).
    type Row: Serialize;

    /// The rows, in a stable order.
    fn csv_rows(&self) -> Vec<Self::Row>;

    /// Writes a header and the rows.
    fn write_csv<W: Write>(&self, w: W) -> Result<(), csv::Error> {
        write_rows(w, &self.csv_rows())
    }

    /// The table as a string.
    fn to_csv_string(&self) -> Result<String, csv::Error> {
        let mut buf = Vec::new();
        self.write_csv(&mut buf)?;
        Ok(String::from_utf8(buf).expect("csv writes UTF-8"))
    }
}

/// Writes any rows (header from the first row's field names; nothing when empty).
pub fn write_rows<W: Write, R: Serialize>(w: W, rows: &[R]) -> Result<(), csv::Error> {
    let mut wr = csv::Writer::from_writer(w);
    for r in rows {
        wr.serialize(r)?;
    }
    wr.flush()?;
    Ok(())
}

/// Rows as a CSV string.
pub fn rows_to_string<R: Serialize>(rows: &[R]) -> Result<String, csv::Error> {
    let mut buf = Vec::new();
    write_rows(&mut buf, rows)?;
    Ok(String::from_utf8(buf).expect("csv writes UTF-8"))
}
