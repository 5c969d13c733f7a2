"""Breakout: Bounce a ball off your paddle to smash a wall of bricks; each brick scores."""

from crumb.genres import Genre, GenreControls, Words

GENRE = Genre(
    id='breakout',
    name='Breakout',
    order=2,
    names={'en': 'Breakout', 'nl': 'Steenbreker', 'de': 'Mauerbrecher', 'it': 'Spaccamattoni', 'zh-Hans': '打砖块', 'zh-Hant': '打磚塊', 'ko': '벽돌 깨기', 'ja': 'ブロック崩し'},
    words={
        'en': Words(strong=('breakout', 'arkanoid', 'brick breaker', 'brickbreaker', 'break bricks', 'bricks', 'brick'), weak=('paddle*', 'ball', 'balls', 'wall'), verbs=('ball',)),
        'nl': Words(strong=('steenbreker', 'bakstenen'), weak=('peddel', 'muur'), verbs=('bal',)),
        'de': Words(strong=('mauerbrecher', 'ziegel*'), weak=('schläger', 'mauer')),
        'it': Words(strong=('mattoni', 'spaccamattoni'), weak=('palla', 'pallina', 'racchetta', 'muro'), verbs=('palla',)),
        'zh-Hans': Words(strong=('打砖块', '砖块'), weak=('球', '挡板'), verbs=('球',)),
        'zh-Hant': Words(strong=('打磚塊', '磚塊'), weak=('球', '擋板'), verbs=('球',)),
        'ko': Words(strong=('벽돌',), weak=('패들',)),
        'ja': Words(strong=('ブロック崩し', 'ブロックくずし'), weak=('ボール', 'パドル'), verbs=('ボール',)),
        'any': Words(strong=('🧱',)),
    },
    famous=('arkanoid',),
    aliases=('brick breaker', 'bricks', 'arkanoid'),
    core_loop='Bounce a ball off your paddle to smash a wall of bricks; each brick scores.',
    controls=GenreControls(keys=('ArrowLeft', 'ArrowRight', ' '), pointer='move the paddle with the mouse; click to launch',
                      touch='drag to move the paddle; tap to launch'),
    win='Clear every brick (or reach the target score).',
    lose='Let the ball fall past the paddle with no lives left.',
    rules='The ball reflects off walls, bricks and the paddle (the hit point steers it). A brick breaks on one hit and scores 10. Missing the ball costs a life.',
    references=('Breakout (Atari, 1976)', 'Arkanoid (Taito, 1986)'),
    pitches=('Breakout with 5 lives and 3 levels, reach 1000 points',),
    themes={'retro': 2, 'neon': 2},
    palette={'bg': '#12132a', 'accent': '#6c8cff', 'accent2': '#ff9f43', 'danger': '#ff4d6d', 'fg': '#c9d1ff', 'text': '#f5f6ff'},
    defaults={'lives': 3},
    honours={'lives': None, 'levels': None, 'level_time_s': None},
    state_keys=('bricksLeft', 'paddleX', 'ball'),
)
