"""Seat names for render tests: Discord's longest nicknames (32 characters) in several scripts."""

LONG_NAMES = [
    "Bob Zürich Überspieler of Cards~",
    "Ґалина Єрмак Їжачок і я ґєїі ok",
    "王小明 張偉 山田さくら 김민준 한국어 ok",
    "👨‍👩‍👧 Olha 🇺🇦 👍🏽 a long name xx",
    "Ζωή Παπαδοπούλου Καλημέρα ok",
    "Frank",
]
