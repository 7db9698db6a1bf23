import { check, maxLength, minLength, pipe, record, string } from 'valibot';

/** Most tags one browser carries. */
export const MAX_BROWSER_TAGS = 50;

/** Longest tag key and tag value, in characters. */
export const TAG_KEY_MAX_CHARACTERS = 64;
export const TAG_VALUE_MAX_CHARACTERS = 256;

/** Whether `text` holds a control character (U+0000–U+001F, U+007F). */
// @__NO_SIDE_EFFECTS__
function hasControlCharacter(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/**
 * A browser's tags: at most 50 pairs of a key (1–64 characters) and a value (at most 256
 * characters), each free of control characters.
 */
export const BrowserTagsSchema = /* @__PURE__ */ pipe(
  /* @__PURE__ */ record(
    /* @__PURE__ */ pipe(
      /* @__PURE__ */ string(),
      /* @__PURE__ */ minLength(1, 'a tag key must not be empty'),
      /* @__PURE__ */ maxLength(TAG_KEY_MAX_CHARACTERS, 'a tag key must be at most 64 characters'),
      /* @__PURE__ */ check(
        (key) => !hasControlCharacter(key),
        'a tag key must not hold a control character',
      ),
    ),
    /* @__PURE__ */ pipe(
      /* @__PURE__ */ string('a tag value must be a string'),
      /* @__PURE__ */ maxLength(
        TAG_VALUE_MAX_CHARACTERS,
        'a tag value must be at most 256 characters',
      ),
      /* @__PURE__ */ check(
        (value) => !hasControlCharacter(value),
        'a tag value must not hold a control character',
      ),
    ),
  ),
  /* @__PURE__ */ check(
    (tags) => Object.keys(tags).length <= MAX_BROWSER_TAGS,
    'must hold at most 50 tags',
  ),
);
