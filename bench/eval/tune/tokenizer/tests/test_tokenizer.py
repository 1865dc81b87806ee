import unittest

from tokenizer import Kind, TokenStream, TokenizeError, tokenize


def kinds_and_values(source):
    return [(t.kind, t.value) for t in tokenize(source)][:-1]


class ScannerTest(unittest.TestCase):
    def test_expression(self):
        self.assertEqual(
            [t.text for t in tokenize("price * 1.2 >= limit")][:-1],
            ["price", "*", "1.2", ">=", "limit"],
        )

    def test_numbers(self):
        values = [t.value for t in tokenize("7 0.5 .25 2e3 1.5E-2")][:-1]
        self.assertEqual(values, [7, 0.5, 0.25, 2000.0, 0.015])

    def test_keywords_and_names(self):
        self.assertEqual(
            kinds_and_values("not _tmp or true"),
            [(Kind.KEYWORD, "not"), (Kind.NAME, "_tmp"), (Kind.KEYWORD, "or"), (Kind.KEYWORD, "true")],
        )

    def test_simple_escapes(self):
        self.assertEqual(tokenize(r'"a\tb\"c\\"')[0].value, 'a\tb"c\\')

    def test_unicode_escapes(self):
        self.assertEqual(tokenize(r'"caf\u00e9"')[0].value, "café")
        self.assertEqual(tokenize(r'"\u2192 next"')[0].value, "→ next")

    def test_unknown_escapes_are_kept(self):
        self.assertEqual(tokenize(r'"C:\dir"')[0].value, "C:\\dir")

    def test_bad_unicode_escape(self):
        with self.assertRaises(TokenizeError) as caught:
            tokenize('x = "\\u12"')
        self.assertEqual(caught.exception.line, 1)

    def test_comments_and_newlines(self):
        source = "a = 1  # one\n\n\nb = (2,\n 3)\n"
        kinds = [t.kind for t in tokenize(source)]
        self.assertEqual(kinds.count(Kind.NEWLINE), 2)
        self.assertNotIn("# one", [t.text for t in tokenize(source)])

    def test_position_of_an_error(self):
        with self.assertRaises(TokenizeError) as caught:
            tokenize("a = 1\nb = 2 $ 3")
        self.assertEqual((caught.exception.line, caught.exception.column), (2, 7))

    def test_unterminated_string(self):
        with self.assertRaises(TokenizeError):
            tokenize('"open\n"')


class StreamTest(unittest.TestCase):
    def test_expect_and_accept(self):
        stream = TokenStream(tokenize('greet("hi")'))
        self.assertEqual(stream.expect(Kind.NAME).text, "greet")
        self.assertIsNone(stream.accept(Kind.OP, "["))
        stream.expect(Kind.OP, "(")
        self.assertEqual(stream.expect(Kind.STRING).value, "hi")
        stream.expect(Kind.OP, ")")
        self.assertTrue(stream.at_end())


if __name__ == "__main__":
    unittest.main()
