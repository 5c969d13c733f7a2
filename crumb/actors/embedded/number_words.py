"""Number words, language by language (the 12 languages written in Latin or Cyrillic letters): data, shared by
the number reader (numbers.py), which reads them as values, and the language reader (language.py), for which a
number word only one language has ("drei", "trois", "vijf") is a word of that language: "Snake mit drei Leben"
is German, whatever the genre's English name says.

Pure data and its expansion into compounds; no reading happens here.
"""

from __future__ import annotations

from functools import lru_cache

_EN = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
       "seventeen eighteen nineteen", "twenty thirty forty fifty sixty seventy eighty ninety")
_NL = ("nul een twee drie vier vijf zes zeven acht negen tien elf twaalf dertien veertien vijftien zestien "
       "zeventien achttien negentien", "twintig dertig veertig vijftig zestig zeventig tachtig negentig")
_DE = ("null eins zwei drei vier fünf sechs sieben acht neun zehn elf zwölf dreizehn vierzehn fünfzehn sechzehn "
       "siebzehn achtzehn neunzehn", "zwanzig dreißig vierzig fünfzig sechzig siebzig achtzig neunzig")
_IT = ("zero uno due tre quattro cinque sei sette otto nove dieci undici dodici tredici quattordici quindici "
       "sedici diciassette diciotto diciannove", "venti trenta quaranta cinquanta sessanta settanta ottanta novanta")
_ES = ("cero uno dos tres cuatro cinco seis siete ocho nueve diez once doce trece catorce quince dieciséis "
       "diecisiete dieciocho diecinueve", "veinte treinta cuarenta cincuenta sesenta setenta ochenta noventa")
_FR = ("zéro un deux trois quatre cinq six sept huit neuf dix onze douze treize quatorze quinze seize",
       "vingt trente quarante cinquante soixante septante huitante nonante")
_PT = ("zero um dois três quatro cinco seis sete oito nove dez onze doze treze catorze quinze dezesseis "
       "dezessete dezoito dezenove", "vinte trinta quarenta cinquenta sessenta setenta oitenta noventa")
_RU = ("ноль один два три четыре пять шесть семь восемь девять десять одиннадцать двенадцать тринадцать "
       "четырнадцать пятнадцать шестнадцать семнадцать восемнадцать девятнадцать",
       "двадцать тридцать сорок пятьдесят шестьдесят семьдесят восемьдесят девяносто")
_UK = ("нуль один два три чотири п'ять шість сім вісім дев'ять десять одинадцять дванадцять тринадцять "
       "чотирнадцять п'ятнадцять шістнадцять сімнадцять вісімнадцять дев'ятнадцять",
       "двадцять тридцять сорок п'ятдесят шістдесят сімдесят вісімдесят дев'яносто")
_PL = ("zero jeden dwa trzy cztery pięć sześć siedem osiem dziewięć dziesięć jedenaście dwanaście trzynaście "
       "czternaście piętnaście szesnaście siedemnaście osiemnaście dziewiętnaście",
       "dwadzieścia trzydzieści czterdzieści pięćdziesiąt sześćdziesiąt siedemdziesiąt osiemdziesiąt dziewięćdziesiąt")
_TR = ("sıfır bir iki üç dört beş altı yedi sekiz dokuz on", "yirmi otuz kırk elli altmış yetmiş seksen doksan")
_VI = ("không một hai ba bốn năm sáu bảy tám chín mười", "")

#: other forms of a number: feminine, inflected (Slavic cases), spelling variants
FORMS: dict[str, dict[str, int]] = {
    "en": {"dozen": 12, "single": 1},
    "nl": {"één": 1},
    "de": {"ein": 1, "eine": 1, "einen": 1, "einem": 1, "einer": 1, "dreissig": 30},
    "it": {"un": 1, "una": 1},
    "es": {"un": 1, "una": 1, "dieciseis": 16, "veintiún": 21, "veintiuna": 21, "veintidos": 22, "veintitres": 23,
           "veintiseis": 26},
    "fr": {"une": 1, "zero": 0, "octante": 80, "quatre-vingt": 80, "quatre-vingts": 80},
    "pt": {"uma": 1, "duas": 2, "tres": 3, "quatorze": 14, "dezasseis": 16, "dezassete": 17, "dezanove": 19},
    "ru": {"одна": 1, "одно": 1, "одну": 1, "одного": 1, "одной": 1, "одним": 1, "две": 2, "двух": 2, "двумя": 2,
           "трёх": 3, "тремя": 3, "четырёх": 4, "четырьмя": 4, "сорока": 40, "девяноста": 90},
    "uk": {"одна": 1, "одне": 1, "одну": 1, "одного": 1, "однією": 1, "дві": 2, "двох": 2, "двома": 2, "трьох": 3,
           "трьома": 3, "чотирьох": 4, "чотирма": 4, "сорока": 40, "дев'яноста": 90},
    "pl": {"jedna": 1, "jedno": 1, "jednym": 1, "jedną": 1, "dwie": 2, "dwóch": 2, "dwoma": 2, "dwu": 2,
           "trzech": 3, "trzema": 3, "czterech": 4, "czterema": 4},
    "tr": {},
    "vi": {"bẩy": 7, "lăm": 5, "nhăm": 5, "mốt": 1, "tư": 4, "linh": 0, "lẻ": 0},
}
#: words that multiply what comes before them ("two hundred", "hai mươi", "dwa tysiące"); alone they are the value
MULTIPLIERS: dict[str, dict[str, int]] = {
    "en": {"hundred": 100, "thousand": 1000},
    "nl": {"honderd": 100, "duizend": 1000},
    "de": {"hundert": 100, "tausend": 1000},
    "it": {"cento": 100, "mille": 1000, "mila": 1000},
    "es": {"mil": 1000},
    "fr": {"cent": 100, "cents": 100, "mille": 1000},
    "pt": {"mil": 1000},
    "ru": {"тысяча": 1000, "тысячи": 1000, "тысяч": 1000},
    "uk": {"тисяча": 1000, "тисячі": 1000, "тисяч": 1000},
    "pl": {"tysiąc": 1000, "tysiące": 1000, "tysięcy": 1000},
    "tr": {"yüz": 100, "bin": 1000},
    "vi": {"mươi": 10, "trăm": 100, "nghìn": 1000, "ngàn": 1000},
}
#: words read only in a text of their language: elsewhere they are ordinary words ("on", "once", "bin", "um")
ONLY_IN: dict[str, frozenset[str]] = {
    "tr": frozenset({"on", "bin", "bir"}), "es": frozenset({"once"}), "pt": frozenset({"um"}),
    "pl": frozenset({"sto"}), "vi": frozenset({"ba", "hai", "tư", "mốt", "linh", "lẻ", "không"}),
}


def _joined(words: dict[str, int], units: list[str], tens: list[str], join: str) -> None:
    """Compounds written as one word: tens then units ("venticinque", "yirmibeş") or the other way."""
    for ti, t in enumerate(tens):
        for u in range(1, 10):
            words[join.format(t=t, u=units[u])] = 20 + 10 * ti + u


@lru_cache(maxsize=1)
def language_words() -> dict[str, dict[str, int]]:
    """Every language's single number words (the reader adds compounds written as several words)."""
    out: dict[str, dict[str, int]] = {}
    rows = {"en": _EN, "nl": _NL, "de": _DE, "it": _IT, "es": _ES, "fr": _FR, "pt": _PT, "ru": _RU, "uk": _UK,
            "pl": _PL, "tr": _TR, "vi": _VI}
    for lang, (units_s, tens_s) in rows.items():
        units, tens = units_s.split(), tens_s.split()
        words = {w: i for i, w in enumerate(units)}
        words.update({w: 20 + 10 * i for i, w in enumerate(tens)})
        if lang == "nl":
            for ti, t in enumerate(tens):
                for u in range(1, 10):
                    unit = units[u]
                    words[f"{unit}{'ën' if unit.endswith('e') else 'en'}{t}"] = 20 + 10 * ti + u
            for u in range(2, 10):
                words[f"{units[u]}honderd"], words[f"{units[u]}duizend"] = 100 * u, 1000 * u
        elif lang == "de":
            _joined(words, ["ein", *units[1:]], tens, "{u}und{t}")
            for u in range(1, 10):
                unit = "ein" if u == 1 else units[u]
                words[f"{unit}hundert"], words[f"{unit}tausend"] = 100 * u, 1000 * u
        elif lang == "it":
            for ti, t in enumerate(tens):
                for u in range(1, 10):
                    stem = t[:-1] if units[u][0] in "uo" else t
                    words[stem + units[u]] = words[stem + ("tré" if u == 3 else units[u])] = 20 + 10 * ti + u
            for u in range(2, 10):
                words[f"{units[u]}cento"], words[f"{units[u]}mila"] = 100 * u, 1000 * u
        elif lang == "es":
            _joined(words, ["", "uno", "dós", "trés", "cuatro", "cinco", "séis", "siete", "ocho", "nueve"], ["veinti"], "{t}{u}")
            _joined(words, units, ["veinti"], "{t}{u}")
            for h, w in enumerate("cien doscientos trescientos cuatrocientos quinientos seiscientos setecientos "
                                  "ochocientos novecientos".split(), 1):
                words[w] = 100 * h
                words[w[:-2] + "as" if w.endswith("os") else w] = 100 * h
            words["ciento"] = 100
        elif lang == "pt":
            for h, w in enumerate("cem duzentos trezentos quatrocentos quinhentos seiscentos setecentos oitocentos "
                                  "novecentos".split(), 1):
                words[w] = 100 * h
            words["cento"] = 100
        elif lang == "ru":
            for h, w in enumerate("сто двести триста четыреста пятьсот шестьсот семьсот восемьсот девятьсот".split(), 1):
                words[w] = 100 * h
            for w, v in list(words.items()):
                if w.endswith("ь") and 5 <= v <= 30:  # пять → пяти, пятью; двадцать → двадцати, двадцатью
                    words[w[:-1] + "и"] = words[w[:-1] + "ью"] = v
            words.update({"восьми": 8, "восемью": 8, "пятидесяти": 50, "шестидесяти": 60, "семидесяти": 70,
                          "восьмидесяти": 80, "ста": 100})
        elif lang == "uk":
            for h, w in enumerate("сто двісті триста чотириста п'ятсот шістсот сімсот вісімсот дев'ятсот".split(), 1):
                words[w] = 100 * h
            words.update({"п'яти": 5, "п'ятьма": 5, "шести": 6, "шістьма": 6, "семи": 7, "сімома": 7, "восьми": 8,
                          "вісьмома": 8, "дев'яти": 9, "дев'ятьма": 9, "десяти": 10, "десятьма": 10, "двадцяти": 20,
                          "тридцяти": 30})
        elif lang == "pl":
            for h, w in enumerate("sto dwieście trzysta czterysta pięćset sześćset siedemset osiemset dziewięćset".split(), 1):
                words[w] = 100 * h
            words.update({"pięciu": 5, "pięcioma": 5, "sześciu": 6, "sześcioma": 6, "siedmiu": 7, "siedmioma": 7,
                          "ośmiu": 8, "ośmioma": 8, "dziewięciu": 9, "dziewięcioma": 9, "dziesięciu": 10,
                          "dziesięcioma": 10, "dwudziestu": 20, "trzydziestu": 30})
            for w, v in list(words.items()):
                if w.endswith("naście"):  # jedenaście → jedenastu, jedenastoma
                    words[w[:-4] + "stu"] = words[w[:-4] + "stoma"] = v
        elif lang == "tr":
            _joined(words, units, tens, "{t}{u}")
            for u in range(1, 10):
                words[f"on{units[u]}"] = 10 + u
        words.update(FORMS[lang])
        if lang in ("ru", "uk"):
            words.update({w.replace("ё", "е"): v for w, v in words.items() if "ё" in w})
        out[lang] = words
    return out
