"""Stacker: A block slides back and forth; drop it on the stack. Overhangs are cut off, so the blocks shrink."""

from crumb.genres import Genre, GenreControls, Words

GENRE = Genre(
    id='stacker',
    name='Stacker',
    order=16,
    names={'en': 'Stacker', 'nl': 'Stapelaar', 'de': 'Stapler', 'it': 'Impilatore', 'zh-Hans': '叠叠高', 'zh-Hant': '疊疊高', 'ko': '탑 쌓기', 'ja': 'タワー積み'},
    words={
        'en': Words(strong=('stacker', 'stack*', 'tower*'), weak=('drop', 'balance', 'height'), verbs=('build*',)),
        'nl': Words(strong=('stapel*', 'toren*'), weak=('laten vallen',), verbs=('bouw*',)),
        'de': Words(strong=('turm*', 'türme'), weak=('fallen lassen',), verbs=('bau*',)),
        'it': Words(strong=('impila*', 'torre'), weak=('altezza',), verbs=('costrui*',)),
        'zh-Hans': Words(strong=('叠叠高', '堆叠', '叠塔'), weak=('塔',), verbs=('建',)),
        'zh-Hant': Words(strong=('疊疊高', '堆疊', '疊塔'), weak=('塔',), verbs=('建',)),
        'ko': Words(strong=('탑 쌓기', '탑쌓기', '쌓기'), weak=('높이', '탑'), verbs=('쌓',)),
        'ja': Words(strong=('積み', 'タワー'), weak=('高さ', '積む'), verbs=('建て',)),
    },
    aliases=('stack',),
    core_loop='A block slides back and forth; drop it on the stack. Overhangs are cut off, so the blocks shrink.',
    controls=GenreControls(keys=(' ', 'Enter'), pointer='click to drop',
                      touch='tap to drop'),
    win='Reach the target height or score.',
    lose='Miss the stack completely.',
    rules='Each placed block scores 1 and speeds up the next; a perfect drop keeps the full width.',
    references=('Stacker (LAI Games, 2004)', 'Stack (Ketchapp, 2016)'),
    pitches=('stack the tower as high as you can, speed 3',),
    themes={'mono': 1},
    palette={'bg': '#0b1526', 'accent': '#22d3ee', 'accent2': '#f472b6', 'danger': '#fb7185', 'fg': '#94a3b8', 'text': '#f8fafc'},
    honours={'lives': None, 'levels': None, 'grid': (5, 11), 'level_time_s': None},
    state_keys=('row', 'rows', 'width', 'height', 'misses', 'perfects', 'grid'),
    idle_safe=True,
)
