"""Flappy: Tap to flap through gaps between pipes; every gap passed scores a point."""

from crumb.genres import Genre, GenreControls, Words

GENRE = Genre(
    id='flappy',
    name='Flappy',
    order=3,
    names={'en': 'Flappy', 'nl': 'Fladder', 'de': 'Flatter', 'it': 'Svolazzo', 'zh-Hans': '飞翔小鸟', 'zh-Hant': '飛翔小鳥', 'ko': '플래피', 'ja': 'フラッピー'},
    words={
        'en': Words(strong=('flappy', 'flap*'), weak=('bird*', 'pipe*', 'gap*'), verbs=('fly', 'flying')),
        'nl': Words(strong=('fladder*',), weak=('vogel*', 'buizen'), verbs=('vlieg*',)),
        'de': Words(strong=('flatter*',), weak=('röhren',), verbs=('flieg*',)),
        'it': Words(strong=('svolazz*',), weak=('uccell*', 'tubi'), verbs=('vola*',)),
        'zh-Hans': Words(strong=('像素鸟', '笨鸟', '飞翔小鸟'), weak=('鸟', '管道', '水管'), verbs=('飞',)),
        'zh-Hant': Words(strong=('像素鳥', '笨鳥', '飛翔小鳥'), weak=('鳥', '管道', '水管'), verbs=('飛',)),
        'ko': Words(strong=('플래피', '날갯짓'), weak=('새가', '새를', '파이프'), verbs=('날아',)),
        'ja': Words(strong=('フラッピー', '羽ばたき', 'はばたき'), weak=('鳥', 'とり', '土管'), verbs=('飛', '飛ぶ')),
        'any': Words(strong=('🐦',)),
    },
    famous=('flappy bird',),
    aliases=('flappy bird', 'flap'),
    core_loop='Tap to flap through gaps between pipes; every gap passed scores a point.',
    controls=GenreControls(keys=(' ', 'ArrowUp'), pointer='click to flap',
                      touch='tap to flap'),
    win='Reach the target score, when one is set.',
    lose='Touch a pipe, the ground or the ceiling.',
    rules='Gravity pulls the bird down; a flap gives it an upward kick. Pipes scroll in from the right with a gap at a random height; passing one scores 1.',
    references=('Flappy Bird (dotGears, 2013)', 'Helicopter Game (2000s)'),
    pitches=('flappy bird but underwater, survive 2 minutes',),
    themes={'underwater': 2},
    palette={'bg': '#1d3557', 'accent': '#ffd166', 'accent2': '#06d6a0', 'danger': '#ef476f', 'fg': '#a8dadc', 'text': '#ffffff'},
    defaults={'lives': 3},
    honours={'lives': None},
    state_keys=('birdY', 'pipesPassed', 'gapY'),
    survive_win=True,
)
