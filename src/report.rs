//! Plain-text views of an encounter: log lines and the `show` page.
