//! A value made once for a key of what it reads, and handed out again while the key is the
//! same: what the layout measures and a pane then draws in the same frame (the status pane's
//! lines, the order's columns) is made once a change, not twice, and a log item's rows once
//! for the pane's width, not every frame the log changes.

use std::cell::RefCell;
use std::rc::Rc;

/// The last value made and its key.
pub struct Memo<T>(RefCell<Option<(u64, Rc<T>)>>);

impl<T> Default for Memo<T> {
    fn default() -> Self {
        Self(RefCell::new(None))
    }
}

// What is kept is not part of a value that keeps it: a copy starts with nothing kept, and two
// values are alike whatever each has kept.
impl<T> Clone for Memo<T> {
    fn clone(&self) -> Self {
        Self::default()
    }
}

impl<T> PartialEq for Memo<T> {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl<T> Eq for Memo<T> {}

impl<T> std::fmt::Debug for Memo<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Memo")
    }
}

impl<T> Memo<T> {
    /// Forgets what was kept: the next [`Memo::get`] makes it afresh (tests that hold what
    /// is kept to what is made afresh).
    #[cfg(test)]
    pub fn forget(&self) {
        *self.0.borrow_mut() = None;
    }

    /// The value for `key`: the kept one if it was made for `key`, else `make`'s, kept.
    pub fn get(&self, key: u64, make: impl FnOnce() -> T) -> Rc<T> {
        if let Some((k, value)) = self.0.borrow().as_ref()
            && *k == key
        {
            return Rc::clone(value);
        }
        // Made with nothing borrowed: `make` may read another memo, or this one.
        let value = Rc::new(make());
        *self.0.borrow_mut() = Some((key, Rc::clone(&value)));
        value
    }
}

#[cfg(test)]
mod tests {
    use super::Memo;
    use std::cell::Cell;

    #[test]
    fn a_value_is_made_once_for_its_key_and_again_for_another() {
        let calls = Cell::new(0);
        let memo = Memo::default();
        let make = |v: u32| {
            calls.set(calls.get() + 1);
            v
        };
        assert_eq!(*memo.get(1, || make(10)), 10);
        assert_eq!(*memo.get(1, || make(11)), 10, "kept for the same key");
        assert_eq!(calls.get(), 1);
        assert_eq!(*memo.get(2, || make(20)), 20, "made again for another key");
        assert_eq!(*memo.get(1, || make(12)), 12, "only the last is kept");
        assert_eq!(calls.get(), 3);
    }
}
