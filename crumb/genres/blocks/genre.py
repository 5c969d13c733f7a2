"""Blocks: Steer and rotate falling pieces to complete rows; full rows clear and score."""

from crumb.genres import Genre, GenreControls, Words

GENRE = Genre(
    id='blocks',
    name='Blocks',
    order=12,
    names={'en': 'Blocks', 'nl': 'Blokken', 'de': 'Blöcke', 'it': 'Blocchi', 'zh-Hans': '俄罗斯方块', 'zh-Hant': '俄羅斯方塊', 'ko': '블록 쌓기', 'ja': '落ちものパズル'},
    words={
        'en': Words(strong=('tetris', 'tetromino*', 'falling blocks', 'falling block', 'blocks'), weak=('line*', 'rotate', 'rows', 'clear lines', 'rotat*')),
        'nl': Words(strong=('blokken',), weak=('lijnen',)),
        'de': Words(strong=('blöcke',), weak=('reihen',)),
        'it': Words(strong=('blocchi',), weak=('linee',)),
        'zh-Hans': Words(strong=('俄罗斯方块', '方块'), weak=('消行',)),
        'zh-Hant': Words(strong=('俄羅斯方塊', '方塊'), weak=('消行',)),
        'ko': Words(strong=('테트리스', '블록'), weak=('줄',)),
        'ja': Words(strong=('テトリス', '落ちもの'), weak=('ライン', 'ブロック')),
    },
    famous=('tetris',),
    aliases=('tetris',),
    core_loop='Steer and rotate falling pieces to complete rows; full rows clear and score.',
    controls=GenreControls(keys=('ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', ' '), pointer='click left/right of the piece to move it, on it to rotate',
                      touch='tap left/right to move, tap the piece to rotate, swipe down to drop'),
    win='Reach the target score, when one is set.',
    lose='The stack reaches the top.',
    rules='Seven tetromino shapes fall one cell per tick, faster each level. Clearing 1/2/3/4 rows scores 100/300/500/800.',
    references=('Tetris (Alexey Pajitnov, 1984)',),
    pitches=('tetris with a 3 minute timer',),
    themes={'mono': 2},
    palette={'bg': '#0f1020', 'accent': '#7c83ff', 'accent2': '#ffd23f', 'danger': '#ff4d6d', 'fg': '#a9b0d6', 'text': '#f5f6ff'},
    honours={'lives': None, 'levels': None, 'level_time_s': None},
    state_keys=('lines', 'next', 'piece', 'x', 'y', 'rotation', 'stackHeight', 'pieces'),
)
