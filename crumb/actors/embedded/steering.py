"""Steering: a person's short messages ("make it red", "faster", "30 seconds", "drei Leben") turned
into an amended Spec, with a note per change so the transcript says what was understood.

Pure and deterministic. Text it cannot read changes nothing and says so.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from crumb.actors.embedded import catalogue as cat
from crumb.actors.embedded.catalogue import NO_CLOCK, NO_TIME_LIMIT
from crumb.actors.embedded.fidelity import (
    LOCAL,
    after_edit,
    builder_of,
    counted,
    extras_after_edit,
    pace_lines,
    subjects_steered,
    support,
    themes_steered,
    unbuilt_extras,
    unread_numbers,
    unremovable_extras,
)
from crumb.actors.embedded.language import detect_language
from crumb.actors.embedded.numbers import read_numbers
from crumb.actors.embedded.pace import about_one_thing, of_one_thing, read_pace
from crumb.actors.embedded.pitch import find_colours, find_theme, genre_wish, knob, read_extras, set_knob
from crumb.actors.embedded.rules import criteria_for, describe, promises_changed, with_genre
from crumb.actors.embedded.text import blank_keywords, find_any, normalize
from crumb.protocol.game import NUMBER_LIMITS, Numbers, Spec, Theme

FASTER = ("faster", "quicker", "speed up", "speed it up", "more speed", "too slow", "sneller", "vlugger",
          "te langzaam", "te traag", "schneller", "zu langsam", "più veloce", "più rapido", "velocizza",
          "troppo lento", "更快", "快一点", "快一點", "加快", "加速", "太慢", "더 빠르게", "빠르게", "빨리",
          "너무 느려", "速く", "早く", "スピードアップ", "遅すぎ", "más rápido", "más rápida", "acelera", "demasiado lento",
          "plus rapide", "plus vite", "accélère", "accélérer", "trop lent", "trop lente", "mais rápido", "mais rápida",
          "lento demais", "muito lento", "быстрее", "побыстрее", "ускорь", "ускорить", "слишком медленно", "szybciej",
          "przyspiesz", "za wolno", "daha hızlı", "hızlandır", "çok yavaş", "швидше", "пришвидш*", "прискор*",
          "занадто повільно", "nhanh hơn", "tăng tốc", "quá chậm", "chậm quá")
SLOWER = ("slower", "slow down", "slow it down", "too fast", "less fast", "langzamer", "trager", "te snel",
          "langsamer", "zu schnell", "più lento", "più piano", "rallenta", "troppo veloce", "更慢", "慢一点", "慢一點",
          "减速", "減速", "太快", "더 느리게", "느리게", "천천히", "너무 빨라", "遅く", "ゆっくり", "速すぎ", "más lento",
          "más lenta", "más despacio", "frena", "demasiado rápido", "plus lent", "plus lente", "moins vite", "ralentis",
          "ralentir", "trop rapide", "trop vite", "mais devagar", "mais lento", "mais lenta", "desacelera", "rápido demais",
          "muito rápido", "медленнее", "помедленнее", "замедли", "слишком быстро", "wolniej", "zwolnij", "za szybko",
          "daha yavaş", "yavaşlat", "çok hızlı", "повільніше", "сповільн*", "уповільн*", "занадто швидко", "chậm hơn",
          "chậm lại", "giảm tốc", "quá nhanh", "nhanh quá")
BIGGER_TEXT = ("bigger text", "larger text", "bigger font", "larger font", "text bigger", "font bigger",
               "text larger", "bigger letters", "larger letters", "grotere tekst", "grotere letters", "tekst groter",
               "letters groter", "größere schrift", "größerer text", "grössere schrift", "text größer",
               "schrift größer", "größere buchstaben", "testo più grande", "caratteri più grandi",
               "scritte più grandi", "字大一点", "字大一點", "字体大", "字體大", "更大的字", "放大文字", "大字",
               "글자 크게", "큰 글씨", "글씨 크게", "글자를 크게", "文字を大きく", "大きい文字", "文字大きく", "字を大きく",
               "texto más grande", "letra más grande", "letras más grandes", "agranda el texto", "texte plus grand",
               "texte plus gros", "plus gros texte", "agrandir le texte", "agrandis le texte", "police plus grande",
               "texto maior", "letra maior", "letras maiores", "aumenta o texto", "текст крупнее", "шрифт крупнее",
               "крупнее текст", "крупнее шрифт", "увеличь текст", "увеличь шрифт", "większy tekst", "większa czcionka",
               "większe litery", "powiększ tekst", "yazıyı büyüt", "daha büyük yazı", "metni büyüt", "більший текст",
               "збільш текст", "збільш шрифт", "більший шрифт", "крупніший текст", "chữ to hơn", "chữ lớn hơn",
               "phóng to chữ", "tăng cỡ chữ")
SMALLER_TEXT = ("smaller text", "smaller font", "text smaller", "font smaller", "kleinere tekst", "tekst kleiner",
                "kleinere schrift", "text kleiner", "schrift kleiner", "testo più piccolo", "字小一点", "字小一點",
                "更小的字", "글자 작게", "작은 글씨", "文字を小さく", "小さい文字", "texto más pequeño",
                "letra más pequeña", "letras más pequeñas", "texte plus petit", "police plus petite", "texto menor",
                "letra menor", "letras menores", "текст мельче", "шрифт мельче", "мельче текст", "уменьши текст",
                "уменьши шрифт", "mniejszy tekst", "mniejsza czcionka", "mniejsze litery", "yazıyı küçült",
                "daha küçük yazı", "metni küçült", "менший текст", "зменш текст", "зменш шрифт", "менший шрифт",
                "chữ nhỏ hơn", "thu nhỏ chữ", "giảm cỡ chữ")
MORE_LIVES = ("more lives", "增加生命", "加一条命", "加一條命", "extra life", "another life", "one more life", "meer levens", "extra leven", "mehr leben",
              "ein leben mehr", "più vite", "una vita in più", "más vidas", "una vida más", "plus de vies",
              "une vie de plus", "mais vidas", "uma vida a mais", "больше жизней", "ещё жизнь", "еще жизнь",
              "więcej żyć", "dodatkowe życie", "daha fazla can", "bir can daha", "більше життів", "ще життя",
              "thêm mạng", "nhiều mạng hơn", "更多生命", "多一条命", "多一條命", "목숨 더", "목숨을 더",
              "ライフを増やして", "ライフ追加", "残機を増やして")
FEWER_LIVES = ("fewer lives", "less lives", "one life less", "minder levens", "weniger leben", "meno vite",
               "menos vidas", "moins de vies", "меньше жизней", "mniej żyć", "daha az can", "менше життів",
               "ít mạng hơn", "bớt mạng", "更少生命", "少一条命", "少一條命", "목숨 줄여", "목숨을 줄여",
               "ライフを減らして")
MORE_TIME = ("more time", "more seconds", "extra time", "meer tijd", "mehr zeit", "più tempo", "más tiempo",
             "plus de temps", "mais tempo", "больше времени", "więcej czasu", "daha fazla süre", "daha çok zaman",
             "більше часу", "thêm thời gian", "更多时间", "更多時間", "多一点时间", "多一點時間", "시간 더",
             "시간을 더", "時間を増やして", "もっと時間")
LESS_TIME = ("less time", "fewer seconds", "minder tijd", "weniger zeit", "meno tempo", "menos tiempo",
             "moins de temps", "menos tempo", "меньше времени", "mniej czasu", "daha az süre", "daha az zaman",
             "менше часу", "ít thời gian hơn", "bớt thời gian", "更少时间", "更少時間", "少一点时间", "少一點時間",
             "시간 줄여", "시간을 줄여", "時間を減らして")
LIVES_STEP = 1
TIME_STEP = 1.5
SPEED_STEP = 1.25
TEXT_STEP = 1.3
HELP = "try e.g. 'faster', 'make it red', '30 seconds', 'three lives', 'more time', 'bigger text', 'target 500'"


def _clamp(v: float, lo: float, hi: float) -> float:
    return round(min(hi, max(lo, v)), 4)


@lru_cache(maxsize=1)
def _counted_steps() -> tuple[str, ...]:
    """The more/fewer phrases that say a number themselves ('多一条命', 'bir can daha', 'one more life'):
    a step of one, not a count of one, so the number reader does not see them."""
    return tuple(k for k in (*MORE_LIVES, *FEWER_LIVES, *MORE_TIME, *LESS_TIME)
                 if any(v is not None for v in read_numbers(k, detect_language(k)).numbers.model_dump().values()))


def _without_steps(text: str) -> str:
    return blank_keywords(text, _counted_steps())


def _numbers(spec: Spec, text: str) -> tuple[Spec, list[str]]:
    text = _without_steps(text)
    read = counted(read_numbers(text, detect_language(text, spec.language)), spec.genre)
    numbers = spec.numbers.model_dump()
    notes: list[str] = []
    if find_any(text, NO_TIME_LIMIT) and numbers["time_limit_s"] is not None:
        notes.append(f"time limit: {numbers['time_limit_s']} s → none")
        numbers["time_limit_s"] = None
    for field, value in read.numbers.model_dump().items():
        if value is None:
            continue
        if numbers[field] == value:
            notes.append(f"{field}: already {value:g}")
            continue
        was = "unset" if numbers[field] is None else f"{numbers[field]:g}"
        notes.append(f"{field}: {was} → {value:g} ({read.said.get(field, '')!r})")
        numbers[field] = value
    notes += read.ignored
    notes += [f"Not carried: {x}" for x in pace_lines(read.pace, builder_of(spec), who="the message")]
    notes += [f"Not carried: {x}" for x in unread_numbers(read, spec, embedded=builder_of(spec) == LOCAL, text="the message")]
    pace = read.pace
    if pace.stated and pace.factor is not None:  # held to what the games play by pace.py
        extras = set_knob(spec.extras, "speed", pace.factor)
        if numbers["speed"] is not None:
            # a stated speed outranks the knob in the builder: the new factor is the number the game is checked for
            notes.append(f"speed: {numbers['speed']:g} → {pace.factor:g} ({pace.said!r})")
            numbers["speed"] = pace.factor
        else:
            notes.append(f"speed: ×{knob(spec.extras, 'speed'):g} → ×{knob(extras, 'speed'):g}")
        spec = spec.model_copy(update={"extras": extras})
    if read.numbers.time_limit_s is not None and NO_CLOCK in spec.extras:  # a clock asked for again
        notes.append(f"extra: − {NO_CLOCK}")
        spec = spec.model_copy(update={"extras": [e for e in spec.extras if e != NO_CLOCK]})
    if numbers != spec.numbers.model_dump():
        new = Numbers(**numbers)
        core, win, lose = (describe(spec.genre, new) if spec.genre in cat.genre_ids()
                           else (spec.core_loop, spec.win, spec.lose))
        spec = spec.model_copy(update={"numbers": new, "core_loop": core, "win": win, "lose": lose})
    return spec, notes


def _relative(spec: Spec, text: str) -> tuple[Spec, list[str]]:
    """'more lives', 'menos tiempo': a step from what the game plays now (the stated number, else the
    genre's default), for a person who wants more or less without naming a number. A number stated in
    the same message was set by _numbers and wins."""
    lives = 1 if find_any(text, MORE_LIVES) else -1 if find_any(text, FEWER_LIVES) else 0
    time = 1 if find_any(text, MORE_TIME) else -1 if find_any(text, LESS_TIME) else 0
    if not lives and not time:
        return spec, []
    text_numbers = _without_steps(text)
    stated = read_numbers(text_numbers, detect_language(text_numbers, spec.language)).numbers
    lives = 0 if stated.lives is not None else lives
    time = 0 if stated.time_limit_s is not None else time
    defaults = cat.entry(spec.genre).defaults if spec.genre in cat.genre_ids() else {}
    numbers, notes = spec.numbers.model_dump(), []
    if lives:
        why = support(spec.genre, "lives", 2.0) if builder_of(spec) == LOCAL else None
        now = int(numbers["lives"] or defaults.get("lives") or 1)  # no lives stated: the first lost life ends it
        new = max(1, min(int(NUMBER_LIMITS["lives"][1]), now + lives * LIVES_STEP))
        if why:
            notes.append(f"lives: not changed ({why})")
        elif new != now:
            notes.append(f"lives: {now} → {new} ({'more' if lives > 0 else 'fewer'})")
            numbers["lives"] = new
    if time:
        now_t = numbers["time_limit_s"] or defaults.get("time_limit_s")
        if now_t is None:
            notes.append("time limit: not changed (the game has no clock; say e.g. '60 seconds')")
        else:
            new_t = round(now_t * TIME_STEP) if time > 0 else max(5, round(now_t / TIME_STEP))
            new_t = int(min(NUMBER_LIMITS["time_limit_s"][1], new_t))
            notes.append(f"time limit: {now_t} s → {new_t} s ({'more' if time > 0 else 'less'} time)")
            numbers["time_limit_s"] = new_t
    if numbers == spec.numbers.model_dump():
        return spec, notes
    new_numbers = Numbers(**numbers)
    core, win, lose = (describe(spec.genre, new_numbers) if spec.genre in cat.genre_ids()
                       else (spec.core_loop, spec.win, spec.lose))
    return spec.model_copy(update={"numbers": new_numbers, "core_loop": core, "win": win, "lose": lose}), notes


def _speed(spec: Spec, text: str) -> tuple[Spec, list[str]]:
    faster = find_any(text, FASTER)
    hit = faster or find_any(text, SLOWER)
    if not hit or read_pace(text).spans:  # "2x faster" was set as a factor already, or named as not carried
        return spec, []
    verb = about_one_thing(text, hit[0])
    if verb:
        return spec, [f"Not carried: {of_one_thing(verb, hit[1])}"]
    direction = 1 if faster else -1
    factor = SPEED_STEP if direction > 0 else 1 / SPEED_STEP
    word = "faster" if direction > 0 else "slower"
    if spec.numbers.speed is not None:
        # a stated speed outranks the knob in the builder, so steer the number itself
        new = _clamp(spec.numbers.speed * factor, 0.01, 100)
        note = f"speed: {spec.numbers.speed:g} → {new:g} ({word})"
        return spec.model_copy(update={"numbers": spec.numbers.model_copy(update={"speed": new})}), [note]
    before = knob(spec.extras, "speed")
    extras = set_knob(spec.extras, "speed", _clamp(before * factor, 0.25, 4))
    return spec.model_copy(update={"extras": extras}), [f"speed: ×{before:g} → ×{knob(extras, 'speed'):g} ({word})"]


def _text_size(spec: Spec, text: str) -> tuple[Spec, list[str]]:
    direction = 1 if find_any(text, BIGGER_TEXT) else -1 if find_any(text, SMALLER_TEXT) else 0
    if not direction:
        return spec, []
    before = knob(spec.extras, "text_scale")
    after = _clamp(before * TEXT_STEP if direction > 0 else before / TEXT_STEP, 0.5, 3)
    extras = set_knob(spec.extras, "text_scale", after)
    return spec.model_copy(update={"extras": extras}), [f"text size: ×{before:g} → ×{after:g}"]


def _extras(spec: Spec, text: str) -> tuple[Spec, list[str]]:
    wishes = read_extras(text)
    added = [e for e in wishes.asked if e not in spec.extras]
    dropped = [e for e in wishes.refused if e in spec.extras]
    if not added and not wishes.refused:
        return spec, []
    builder = builder_of(spec)
    kept = unremovable_extras(wishes.refused, spec.genre, builder)
    always = {e for e in wishes.refused if unremovable_extras([e], spec.genre, builder)}
    notes = ([f"extra: + {e}" for e in added] + [f"extra: − {e}" for e in dropped]
             + [f"extra: {e}: already without it" for e in wishes.refused if e not in dropped and e not in always]
             + [f"Not carried: {x}" for x in (*unbuilt_extras(added, spec.genre, builder), *kept)])
    extras = [*(e for e in spec.extras if e not in dropped), *added]
    reading = spec.reading
    if reading is not None and kept:  # the verdict waits for it, as for the pitch's own "without bombs"
        reading = reading.model_copy(update={"unhonoured": list(dict.fromkeys([*reading.unhonoured, *kept]))})
    return spec.model_copy(update={"extras": extras, "reading": reading}), notes


def _subjects(spec: Spec, text: str) -> tuple[Spec, list[str]]:
    return subjects_steered(spec, text, detect_language(text, spec.language))


def _look(spec: Spec, text: str) -> tuple[Spec, list[str]]:
    notes: list[str] = []
    palette, name = list(spec.theme.palette), spec.theme.name
    language = detect_language(text, spec.language)
    theme = find_theme(text, language)
    gone = None if theme else find_theme(text, language, refused=True)
    if theme and theme[0].id != name:
        palette, name = list(theme[0].palette), theme[0].id
        notes.append(f"theme: {spec.theme.name} → {name} ({theme[1]!r})")
    elif theme:
        notes.append(f"theme: already {name}")
    elif gone and gone[0].id == name:  # "no more neon": the game's own look again
        palette, name = list(cat.DEFAULT_THEME.palette), cat.DEFAULT_THEME.id
        notes.append(f"theme: {spec.theme.name} → {name} ({gone[1]!r} refused)")
    spec = themes_steered(spec, theme, gone)
    for i, (colour, word) in enumerate(find_colours(text)[:2]):
        while len(palette) < 2 + i:
            palette.append(cat.DEFAULT_THEME.palette[len(palette)])
        which = "main" if i == 0 else "second"
        if palette[1 + i] == colour.hex:
            notes.append(f"{which} colour: already {colour.id}")
            continue
        notes.append(f"{which} colour: {palette[1 + i]} → {colour.hex} ({word!r})")
        palette[1 + i] = colour.hex
    if palette == spec.theme.palette and name == spec.theme.name:
        return spec, notes
    return spec.model_copy(update={"theme": Theme(name=name, palette=palette)}), notes


def _steer_one(spec: Spec, message: str, *, genre_changes: bool) -> tuple[Spec, list[str]]:
    text = normalize(message)
    if not text.strip():
        return spec, []
    notes: list[str] = []
    if genre_changes:
        wish = genre_wish(message, current=spec.genre, lenient=True)
        if wish.genre and wish.genre != spec.genre:
            notes.append(f"genre: {spec.genre} → {wish.genre} ({wish.said!r})")
            spec = with_genre(spec, wish.genre, f"Steered to {wish.genre}: {wish.said!r}.")
    for step in (_numbers, _relative, _speed, _text_size, _extras, _subjects, _look):
        spec, step_notes = step(spec, text)
        notes += step_notes
    if not notes:
        excerpt = " ".join(message.split())[:80]
        notes.append(f"Not understood: {excerpt!r} (no change); {HELP}")
    return spec, notes


def apply_steering(spec: Spec, messages: Sequence[str], *, genre_changes: bool = True) -> tuple[Spec, list[str]]:
    """The spec amended by each message in order, and what changed. Criteria are regenerated when
    the genre, a number or the clock changed, so QA checks the amended promises."""
    original = spec
    notes: list[str] = []
    for message in messages:
        if not isinstance(message, str):
            continue
        for part in re.split(r"\n+", message):
            spec, part_notes = _steer_one(spec, part, genre_changes=genre_changes)
            notes += part_notes
    if promises_changed(spec, original):
        spec = spec.model_copy(update={"criteria": criteria_for(spec)})
        spec = spec.model_copy(update={"reading": after_edit(spec.reading, original, spec, by="steering")})
    if spec.extras != original.extras or spec.genre != original.genre:
        spec = spec.model_copy(update={"reading": extras_after_edit(spec.reading, original, spec)})
    return spec, notes
