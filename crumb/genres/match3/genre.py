"""Match-3: Swap neighbouring gems to line up three or more of a kind; matches clear and score."""

from crumb.genres import Genre, GenreControls, Words

GENRE = Genre(
    id='match3',
    name='Match-3',
    order=9,
    names={'en': 'Match-3', 'nl': 'Drie op een rij', 'de': 'Drei gewinnt', 'it': 'Tris di gemme', 'zh-Hans': '消消乐', 'zh-Hant': '消消樂', 'ko': '매치3', 'ja': 'マッチ3'},
    words={
        'en': Words(strong=('match 3', 'match-3', 'match3', 'match three', 'match-three', 'three in a row', 'candy crush', 'bejeweled'), weak=('gem*', 'jewel*', 'candy', 'candies', 'swap*'), verbs=('puzzle*',)),
        'nl': Words(strong=('drie op een rij',), weak=('edelsteen*',), verbs=('raadsel*',)),
        'de': Words(strong=('drei gewinnt',), weak=('edelstein*', 'juwel*'), verbs=('rätsel*',)),
        'it': Words(strong=('tris',), weak=('gemm*', 'caramell*')),
        'zh-Hans': Words(strong=('消消乐', '三消'), weak=('宝石', '糖果'), verbs=('谜',)),
        'zh-Hant': Words(strong=('消消樂', '三消'), weak=('寶石', '糖果'), verbs=('謎',)),
        'ko': Words(strong=('매치3', '매치 3', '3매치'), weak=('보석', '사탕'), verbs=('퍼즐',)),
        'ja': Words(strong=('マッチ3', '3マッチ'), weak=('ジュエル',), verbs=('謎', 'パズル')),
        'any': Words(strong=('💎',)),
    },
    famous=('match-3', 'match 3', 'candy crush', 'bejeweled'),
    aliases=('match 3', 'match-3'),
    core_loop='Swap neighbouring gems to line up three or more of a kind; matches clear and score.',
    controls=GenreControls(keys=('ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'Enter', ' '), pointer='click a gem, then a neighbour to swap',
                      touch='tap a gem, then a neighbour (or swipe)'),
    win='Reach the target score.',
    lose='Run out of moves or time first.',
    rules='Only swaps that make a line of 3+ are allowed. Cleared gems drop and refill; cascades score more.',
    references=('Bejeweled (PopCap, 2001)', 'Candy Crush Saga (King, 2012)'),
    pitches=('match-3 with gems, 20 moves, reach 1000 points, 8x8 grid',),
    themes={'candy': 1, 'pastel': 2},
    palette={'bg': '#1a1033', 'accent': '#b48cff', 'accent2': '#ffd166', 'danger': '#ff5d73', 'fg': '#cbbcf5', 'text': '#fbf7ff'},
    defaults={'time_limit_s': 60},
    honours={'moves': None, 'grid': (5, 10)},
    state_keys=('combo', 'multiplier', 'comboBonus', 'bestCombo', 'movesLeft', 'movesMade', 'reshuffles', 'validMoves', 'busy', 'selected', 'cursor', 'grid', 'board', 'cells'),
    idle_safe=True,
)
