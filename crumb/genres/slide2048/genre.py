"""2048: Slide every tile in one direction; equal tiles that collide merge and add their value to the score."""

from crumb.genres import Genre, GenreControls, Words

GENRE = Genre(
    id='slide2048',
    name='2048',
    order=11,
    names={'en': '2048', 'nl': '2048', 'de': '2048', 'it': '2048', 'zh-Hans': '2048', 'zh-Hant': '2048', 'ko': '2048', 'ja': '2048'},
    words={
        'en': Words(strong=('slide the tiles', 'sliding tiles', 'slide tiles', 'merge tiles', 'merging tiles', 'threes'), weak=('tile*', 'merge*', 'slide', 'sliding'), verbs=('number*',)),
        'nl': Words(strong=('schuif*', 'tegels'), weak=('samenvoegen',), verbs=('getal*',)),
        'de': Words(strong=('kacheln', 'schiebe*'), weak=('zusammenfügen',), verbs=('zahl*',)),
        'it': Words(strong=('tessere', 'scorri*'), weak=('unisci',), verbs=('numer*',)),
        'zh-Hans': Words(strong=('滑块', '合并方块'), weak=('数字', '合并'), verbs=('数字',)),
        'zh-Hant': Words(strong=('滑塊', '合併方塊'), weak=('數字', '合併'), verbs=('數字',)),
        'ko': Words(strong=('타일 합치기',), weak=('타일', '숫자'), verbs=('숫자',)),
        'ja': Words(strong=('スライドパズル',), weak=('数字', 'タイル'), verbs=('数字',)),
        'any': Words(strong=('2048',)),
    },
    famous=('2048',),
    aliases=('2048',),
    core_loop='Slide every tile in one direction; equal tiles that collide merge and add their value to the score.',
    controls=GenreControls(keys=('ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'w', 'a', 's', 'd'), pointer='click a side of the board to slide that way',
                      touch='swipe to slide'),
    win='Make a 2048 tile (or reach the target score).',
    lose='No move is left (or moves/time run out).',
    rules="After each move a 2 (sometimes 4) appears in an empty cell. Merges score the new tile's value.",
    references=('2048 (Gabriele Cirulli, 2014)', 'Threes! (2014)'),
    pitches=('2048 clone, target score 4096',),
    palette={'bg': '#101a24', 'accent': '#38bdf8', 'accent2': '#fbbf24', 'danger': '#f43f5e', 'fg': '#9fb3c8', 'text': '#f1f5f9'},
    honours={'lives': None, 'grid': (3, 8)},
    state_keys=('maxTile', 'winTile', 'moves', 'grid', 'emptyCells', 'canMove'),
    idle_safe=True,
)
