"""Clicker: Click the big target to earn points; spend them on upgrades that earn more per click."""

from crumb.genres import Genre, GenreControls, Words

GENRE = Genre(
    id='clicker',
    name='Clicker',
    order=14,
    names={'en': 'Clicker', 'nl': 'Klikker', 'de': 'Klicker', 'it': 'Clicker', 'zh-Hans': '点击', 'zh-Hant': '點擊', 'ko': '클리커', 'ja': 'クリッカー'},
    words={
        'en': Words(strong=('clicker', 'cookie clicker', 'idle game', 'incremental', 'tap as fast', 'click as fast'), weak=('click*', 'tap*', 'cookie*', 'upgrade*'), verbs=('tap*', 'click*')),
        'nl': Words(strong=('klikker', 'klikspel'), weak=('klik*',), verbs=('klik*',)),
        'de': Words(strong=('klicker',), weak=('klick*',), verbs=('klick*',)),
        'it': Words(strong=('cliccare',), weak=('tocca', 'clicca')),
        'zh-Hans': Words(strong=('点击', '放置'), weak=('升级',), verbs=('点击',)),
        'zh-Hant': Words(strong=('點擊', '放置'), weak=('升級',), verbs=('點擊',)),
        'ko': Words(strong=('클리커', '방치'), weak=('클릭', '탭', '업그레이드'), verbs=('클릭',)),
        'ja': Words(strong=('クリッカー',), weak=('クリック', 'タップ', 'アップグレード'), verbs=('タップ',)),
        'any': Words(strong=('🍪',)),
    },
    aliases=('idle', 'tap'),
    core_loop='Click the big target to earn points; spend them on upgrades that earn more per click.',
    controls=GenreControls(keys=(' ', 'Enter'), pointer='click the target',
                      touch='tap the target'),
    win='Reach the target score.',
    lose='The clock runs out first, when the round is timed.',
    rules='Every click scores; upgrades multiply clicks or add points per second.',
    references=('Cookie Clicker (2013)', 'Clicker Heroes (2014)'),
    pitches=('cookie clicker where you need 500 points in 20 seconds',),
    themes={'candy': 2},
    palette={'bg': '#1a1230', 'accent': '#8b7bff', 'accent2': '#ffc83d', 'danger': '#ff5d73', 'fg': '#c4b8f0', 'text': '#fffaf0'},
    defaults={'time_limit_s': 60},
    state_keys=('coins', 'perClick', 'perSecond', 'taps', 'upgrades', 'bonusVisible'),
    idle_safe=True,
)
