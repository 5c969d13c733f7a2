"""Simon: Watch the pads light up in a sequence, then repeat it; each round adds one more step."""

from crumb.genres import Genre, GenreControls, Words

GENRE = Genre(
    id='simon',
    name='Simon',
    order=15,
    names={'en': 'Simon', 'nl': 'Simon zegt', 'de': 'Simon sagt', 'it': 'Simon dice', 'zh-Hans': '西蒙说', 'zh-Hant': '西蒙說', 'ko': '사이먼', 'ja': 'サイモン'},
    words={
        'en': Words(strong=('simon', 'simon says', 'repeat the sequence', 'repeat the pattern'), weak=('sequence*', 'pattern*', 'repeat*'), verbs=('remember',)),
        'nl': Words(strong=('simon zegt',), weak=('volgorde', 'reeks'), verbs=('onthoud*',)),
        'de': Words(strong=('simon sagt',), weak=('reihenfolge', 'sequenz', 'muster'), verbs=('merk*',)),
        'it': Words(strong=('simon dice',), weak=('sequenza', 'ripeti'), verbs=('ricorda',)),
        'zh-Hans': Words(strong=('西蒙', '记忆序列'), weak=('顺序', '序列', '重复'), verbs=('记住',)),
        'zh-Hant': Words(strong=('西蒙', '記憶序列'), weak=('順序', '序列', '重複'), verbs=('記住',)),
        'ko': Words(strong=('사이먼',), weak=('순서', '패턴'), verbs=('기억',)),
        'ja': Words(strong=('サイモン',), weak=('順番', 'パターン'), verbs=('覚え',)),
    },
    aliases=('simon says',),
    core_loop='Watch the pads light up in a sequence, then repeat it; each round adds one more step.',
    controls=GenreControls(keys=('1', '2', '3', '4', 'ArrowUp', 'ArrowRight', 'ArrowDown', 'ArrowLeft'), pointer='click the pads',
                      touch='tap the pads'),
    win='Repeat a sequence of the target length (or reach the target score).',
    lose='Press a wrong pad with no lives left.',
    rules='Four coloured pads; the sequence grows by one after each correct repeat, scoring its length.',
    references=('Simon (Milton Bradley, 1978)',),
    pitches=('simon says with 3 lives',),
    palette={'bg': '#111318', 'accent': '#60a5fa', 'accent2': '#facc15', 'danger': '#ef4444', 'fg': '#9ca3af', 'text': '#f9fafb'},
    honours={'lives': None, 'levels': None, 'level_time_s': None},
    state_keys=('sequenceLength', 'step', 'mode', 'best', 'mistakes', 'early'),
    idle_safe=True,
)
