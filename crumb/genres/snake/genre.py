"""Snake: Steer a growing snake around the board to eat food; every bite adds a segment and points."""

from crumb.genres import Genre, GenreControls, Words

GENRE = Genre(
    id='snake',
    name='Snake',
    order=1,
    names={'en': 'Snake', 'nl': 'Slang', 'de': 'Schlange', 'it': 'Serpente', 'zh-Hans': '贪吃蛇', 'zh-Hant': '貪食蛇', 'ko': '뱀 게임', 'ja': 'スネーク'},
    words={
        'en': Words(strong=('snake*', 'serpent*', 'nibbles'), weak=('worm*', 'tail', 'grow', 'grows', 'longer', 'apple*'), verbs=('eat*',)),
        'nl': Words(strong=('slang', 'slangen*'), weak=('appel',), verbs=('eten',)),
        'de': Words(strong=('schlange*',), weak=('wurm', 'apfel'), verbs=('fressen',)),
        'it': Words(strong=('serpente*', 'serpentone'), weak=('verme', 'mela'), verbs=('mangia*',)),
        'zh-Hans': Words(strong=('贪吃蛇', '蛇'), weak=('苹果',), verbs=('吃',)),
        'zh-Hant': Words(strong=('貪吃蛇', '貪食蛇', '蛇'), weak=('蘋果',), verbs=('吃',)),
        'ko': Words(strong=('뱀', '스네이크'), weak=('사과',), verbs=('먹',)),
        'ja': Words(strong=('ヘビ', 'へび', 'スネーク'), weak=('りんご', 'リンゴ'), verbs=('食べ',)),
        'any': Words(strong=('🐍',)),
    },
    core_loop='Steer a growing snake around the board to eat food; every bite adds a segment and points.',
    controls=GenreControls(keys=('ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'w', 'a', 's', 'd'), pointer='click a side of the board to turn that way',
                      touch='swipe to turn'),
    win='Reach the target score, when one is set.',
    lose='Run into a wall or into your own tail.',
    rules='The snake moves one cell per tick in its current direction and cannot reverse. Eating food grows it by one and scores 10. Hitting a wall or itself ends the round (or costs a life).',
    references=('Snake (Nokia, 1997)', 'Blockade (Gremlin, 1976)', 'Nibbles (QBasic, 1991)'),
    pitches=('a neon snake game with three lives and a 60 second time limit',),
    themes={'retro': 1, 'neon': 1},
    palette={'bg': '#101a14', 'accent': '#5be37d', 'accent2': '#ffcf4a', 'danger': '#ff5d73', 'fg': '#b8e6c4', 'text': '#f3fff6'},
    honours={'lives': None, 'levels': None, 'grid': (6, 40), 'level_time_s': None},
    state_keys=('length', 'snakeLength', 'grid', 'head', 'food', 'dir', 'eaten'),
    survive_win=True,
)
