//! `DrainSchedule`: the switch's per-cycle drain probability, piecewise constant in time.

use std::fmt;
use thiserror::Error;

/// Drain probability by cycle: a list of `(from_cycle, p)` steps, the first at cycle 0,
/// cycles strictly increasing, each p in 0..=1.
#[derive(Clone, Debug, PartialEq)]
pub struct DrainSchedule {
    steps: Vec<(u64, f64)>,
}

/// Why a schedule text was refused.
#[derive(Debug, Error, PartialEq)]
pub enum ScheduleError {
    #[error("empty schedule (expected CYCLE:P[,CYCLE:P...], e.g. 0:0.9,2000:0.2)")]
    Empty,
    #[error("entry {index} `{text}`: expected CYCLE:P")]
    Syntax { index: usize, text: String },
    #[error("entry {index} `{text}`: probability must be a number in 0..=1")]
    Probability { index: usize, text: String },
    #[error("entry {index} `{text}`: cycle must be an integer in 0..=18446744073709551615")]
    Cycle { index: usize, text: String },
    #[error("the first entry must start at cycle 0 (found {0})")]
    FirstNotZero(u64),
    #[error("entry {index} `{text}`: cycles must be strictly increasing")]
    NotIncreasing { index: usize, text: String },
}

/// Parse a probability in 0..=1 (no NaN; `-0` is 0, so that it is echoed as `0`).
pub fn parse_probability(s: &str) -> Option<f64> {
    let p: f64 = s.trim().parse().ok()?;
    (0.0..=1.0).contains(&p).then_some(p + 0.0)
}

impl DrainSchedule {
    /// The same probability in every cycle.
    pub fn constant(p: f64) -> Self {
        assert!(
            (0.0..=1.0).contains(&p),
            "drain probability {p} not in 0..=1"
        );
        DrainSchedule {
            steps: vec![(0, p)],
        }
    }

    /// Parse `CYCLE:P[,CYCLE:P...]`, e.g. `0:0.9,2000:0.2,5000:0.9`.
    pub fn parse(s: &str) -> Result<Self, ScheduleError> {
        if s.trim().is_empty() {
            return Err(ScheduleError::Empty);
        }
        let mut steps: Vec<(u64, f64)> = Vec::new();
        for (i, item) in s.split(',').enumerate() {
            let index = i + 1;
            let text = item.trim().to_string();
            let Some((c, p)) = text.split_once(':') else {
                return Err(ScheduleError::Syntax { index, text });
            };
            let cycle: u64 = c.trim().parse().map_err(|_| ScheduleError::Cycle {
                index,
                text: text.clone(),
            })?;
            let p = parse_probability(p).ok_or(ScheduleError::Probability {
                index,
                text: text.clone(),
            })?;
            if i == 0 && cycle != 0 {
                return Err(ScheduleError::FirstNotZero(cycle));
            }
            if let Some(&(last, _)) = steps.last() {
                if cycle <= last {
                    return Err(ScheduleError::NotIncreasing { index, text });
                }
            }
            steps.push((cycle, p));
        }
        Ok(DrainSchedule { steps })
    }

    /// The drain probability in `cycle`.
    pub fn at(&self, cycle: u64) -> f64 {
        let i = self.steps.partition_point(|&(c, _)| c <= cycle);
        self.steps[i - 1].1
    }

    /// The steps, `(from_cycle, p)`.
    pub fn steps(&self) -> &[(u64, f64)] {
        &self.steps
    }
}

impl fmt::Display for DrainSchedule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, (c, p)) in self.steps.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            // (a tiny probability in exponent form: `{}` would write 5e-324 with 324 digits)
            if *p != 0.0 && *p < 1e-4 {
                write!(f, "{c}:{p:e}")?;
            } else {
                write!(f, "{c}:{p}")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_looks_up() {
        let s = DrainSchedule::parse("0:0.9, 2000:0.2,5000:1").unwrap();
        assert_eq!(s.at(0), 0.9);
        assert_eq!(s.at(1999), 0.9);
        assert_eq!(s.at(2000), 0.2);
        assert_eq!(s.at(4999), 0.2);
        assert_eq!(s.at(u64::MAX), 1.0);
        assert_eq!(s.to_string(), "0:0.9,2000:0.2,5000:1");
    }

    /// `-0` reads as 0 and a denormal is echoed short, and both read back the same.
    #[test]
    fn echoes_read_back() {
        let s = DrainSchedule::parse("0:-0,10:5e-324,20:0.00001,30:0.5").unwrap();
        assert_eq!(s.to_string(), "0:0,10:5e-324,20:1e-5,30:0.5");
        assert_eq!(DrainSchedule::parse(&s.to_string()).unwrap(), s);
        assert!(parse_probability("-0").unwrap().is_sign_positive());
    }

    #[test]
    fn refuses_bad_text() {
        assert!(matches!(
            DrainSchedule::parse(""),
            Err(ScheduleError::Empty)
        ));
        assert!(matches!(
            DrainSchedule::parse("5:0.1"),
            Err(ScheduleError::FirstNotZero(5))
        ));
        assert!(matches!(
            DrainSchedule::parse("0:1.5"),
            Err(ScheduleError::Probability { .. })
        ));
        assert!(matches!(
            DrainSchedule::parse("0:NaN"),
            Err(ScheduleError::Probability { .. })
        ));
        assert!(matches!(
            DrainSchedule::parse("0:0.5,0:0.1"),
            Err(ScheduleError::NotIncreasing { .. })
        ));
        assert!(matches!(
            DrainSchedule::parse("0:0.5,x:0.1"),
            Err(ScheduleError::Cycle { .. })
        ));
        assert!(matches!(
            DrainSchedule::parse("0.5"),
            Err(ScheduleError::Syntax { .. })
        ));
    }
}
