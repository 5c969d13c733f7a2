"""Pong: Bat the ball back past the computer's paddle; every point you win scores."""

from crumb.genres import Genre, GenreControls, Words

GENRE = Genre(
    id='pong',
    name='Pong',
    order=7,
    names={'en': 'Pong', 'nl': 'Pong', 'de': 'Pong', 'it': 'Pong', 'zh-Hans': '乒乓', 'zh-Hant': '乒乓', 'ko': '퐁', 'ja': 'ポン',
           'es': 'Pong', 'fr': 'Pong', 'pt': 'Pong', 'ru': 'Понг', 'pl': 'Pong', 'tr': 'Pong', 'uk': 'Понг', 'vi': 'Pong'},
    words={
        'en': Words(strong=('pong', 'ping pong', 'ping-pong', 'table tennis'),
                    weak=('tennis', 'paddle*', 'rally', 'opponent', 'two players', 'up and down')),
        'nl': Words(strong=('tafeltennis',), weak=('tegenstander', 'twee spelers', 'op en neer')),
        'de': Words(strong=('tischtennis',), weak=('gegner', 'beiden spieler', 'zwei spieler', 'hoch und runter')),
        'it': Words(strong=('tennistavolo',), weak=('avversario',)),
        'zh-Hans': Words(strong=('乒乓', '桌球'), weak=('球拍', '对手')),
        'zh-Hant': Words(strong=('乒乓', '桌球'), weak=('球拍', '對手')),
        'ko': Words(strong=('퐁', '탁구'), weak=('상대',)),
        'ja': Words(strong=('ポン', '卓球'), weak=('テニス', '相手')),
        'es': Words(strong=('pong', 'tenis de mesa', 'ping-pong'), weak=('tenis', 'pala', 'palas', 'rival', 'oponente', 'contra la computadora', 'contra el ordenador')),
        'fr': Words(strong=('pong', 'tennis de table'), weak=('tennis', 'raquette*', 'adversaire', "contre l'ordinateur")),
        'pt': Words(strong=('pong', 'tênis de mesa', 'pingue-pongue'), weak=('tênis', 'raquete*', 'adversário', 'oponente', 'contra o computador', 'pás', 'para cima e para baixo', 'dois jogadores')),
        'ru': Words(strong=('понг', 'пинг-понг', 'настольный теннис', 'две ракетки'), weak=('теннис*', 'ракетк*', 'соперник*', 'противник*', 'против компьютера', 'вверх и вниз', 'два игрока')),
        'pl': Words(strong=('pong', 'ping-pong', 'tenis stołowy'), weak=('tenis*', 'paletk*', 'przeciwnik*', 'z komputerem')),
        'tr': Words(strong=('pong', 'masa tenisi', 'pinpon'), weak=('tenis*', 'raket', 'raketi', 'raketle', 'rakip*', 'bilgisayara karşı')),
        'uk': Words(strong=('понг', 'пінг-понг', 'настільний теніс'), weak=('теніс*', 'ракетк*', 'суперник*', "проти комп'ютера")),
        'vi': Words(strong=('pong', 'bóng bàn'), weak=('quần vợt', 'vợt', 'đối thủ', 'đấu với máy')),
        'any': Words(strong=('🏓',)),
    },
    aliases=('paddle', 'tennis'),
    core_loop="Bat the ball back past the computer's paddle; every point you win scores.",
    controls=GenreControls(keys=('ArrowUp', 'ArrowDown', 'w', 's'), pointer='move the paddle with the mouse',
                      touch='drag to move the paddle'),
    win='Reach the target score first.',
    lose='Let the computer reach its target, or run out of lives.',
    rules='Each return scores 1 and each point you win scores 5; the ball speeds up on every return. A ball '
          'past your paddle is a point for the computer and costs a life.',
    references=('Pong (Atari, 1972)',),
    pitches=('pong against the computer, first to score 7 wins',),
    palette={'bg': '#0e1116', 'accent': '#f1f5f9', 'accent2': '#38bdf8', 'danger': '#f43f5e', 'fg': '#64748b', 'text': '#f8fafc'},
    # 30, not "first to 7": the score counts every return (1) as well as every point won (5), so a
    # target of 7 would end the round after seven returns; 30 is also what the game was always built with
    defaults={'lives': 5, 'target_score': 30},
    honours={'lives': None},
    extras=('sound', 'particles'),
    state_keys=('points', 'cpuPoints', 'rally', 'paddleY', 'ball'),
)
