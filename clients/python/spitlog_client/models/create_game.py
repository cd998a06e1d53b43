from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..models.create_game_game import CreateGameGame
from ..models.create_game_kind import CreateGameKind
from ..models.create_game_opponent import CreateGameOpponent
from ..models.create_game_seat_0 import CreateGameSeat0
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.options import Options
    from ..models.player_ref import PlayerRef
    from ..models.webhook import Webhook


T = TypeVar("T", bound="CreateGame")


@_attrs_define
class CreateGame:
    """
    Attributes:
        game (CreateGameGame):
        kind (CreateGameKind | Unset): human (the default) or bot: a client's bot, playing through the API as a person
            does; shown in views and the lobby
        name (str | Unset): a bot seat's name, without a player: 1-64 printable characters (Python's str.isprintable: no
            control, format, separator other than the space, private-use, surrogate or unassigned code point), no space at
            either end
        player (PlayerRef | Unset):
        options (Options | Unset): Table options, chosen when the game is created; options of the other game, unknown
            options and values out of range are a 400.
        opponent (CreateGameOpponent | Unset): who takes seat 1: a human who joins, or a bot
        seat0 (CreateGameSeat0 | Unset): who takes seat 0: you (human, the default) or a bot, and you watch
        rated (bool | Unset): rated (Glicko-2) when it ends: your player against another player or a hosted bot (a
            player's rating moves only against a level or an established player); a resignation or a T-4 forfeit in the
            abort window (a seat that has not moved, until 10 s after its opponent's first move) aborts the game, reason
            `unplayed`; a rated table's `idle_forfeit_s` is at least 30 (400 `options.idle_forfeit_s`)
        client_seed (str | Unset): your contribution to every shuffle of the game (RULES H-6)
        webhook (Webhook | Unset):
    """

    game: CreateGameGame
    kind: CreateGameKind | Unset = UNSET
    name: str | Unset = UNSET
    player: PlayerRef | Unset = UNSET
    options: Options | Unset = UNSET
    opponent: CreateGameOpponent | Unset = UNSET
    seat0: CreateGameSeat0 | Unset = UNSET
    rated: bool | Unset = UNSET
    client_seed: str | Unset = UNSET
    webhook: Webhook | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        game = self.game.value

        kind: str | Unset = UNSET
        if not isinstance(self.kind, Unset):
            kind = self.kind.value

        name = self.name

        player: dict[str, Any] | Unset = UNSET
        if not isinstance(self.player, Unset):
            player = self.player.to_dict()

        options: dict[str, Any] | Unset = UNSET
        if not isinstance(self.options, Unset):
            options = self.options.to_dict()

        opponent: str | Unset = UNSET
        if not isinstance(self.opponent, Unset):
            opponent = self.opponent.value

        seat0: str | Unset = UNSET
        if not isinstance(self.seat0, Unset):
            seat0 = self.seat0.value

        rated = self.rated

        client_seed = self.client_seed

        webhook: dict[str, Any] | Unset = UNSET
        if not isinstance(self.webhook, Unset):
            webhook = self.webhook.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "game": game,
            }
        )
        if kind is not UNSET:
            field_dict["kind"] = kind
        if name is not UNSET:
            field_dict["name"] = name
        if player is not UNSET:
            field_dict["player"] = player
        if options is not UNSET:
            field_dict["options"] = options
        if opponent is not UNSET:
            field_dict["opponent"] = opponent
        if seat0 is not UNSET:
            field_dict["seat0"] = seat0
        if rated is not UNSET:
            field_dict["rated"] = rated
        if client_seed is not UNSET:
            field_dict["client_seed"] = client_seed
        if webhook is not UNSET:
            field_dict["webhook"] = webhook

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.options import Options  # noqa: PLC0415
        from ..models.player_ref import PlayerRef  # noqa: PLC0415
        from ..models.webhook import Webhook  # noqa: PLC0415

        d = dict(src_dict)
        game = CreateGameGame(d.pop("game"))

        _kind = d.pop("kind", UNSET)
        kind: CreateGameKind | Unset
        if isinstance(_kind, Unset):
            kind = UNSET
        else:
            kind = CreateGameKind(_kind)

        name = d.pop("name", UNSET)

        _player = d.pop("player", UNSET)
        player: PlayerRef | Unset
        if isinstance(_player, Unset):
            player = UNSET
        else:
            player = PlayerRef.from_dict(_player)

        _options = d.pop("options", UNSET)
        options: Options | Unset
        if isinstance(_options, Unset):
            options = UNSET
        else:
            options = Options.from_dict(_options)

        _opponent = d.pop("opponent", UNSET)
        opponent: CreateGameOpponent | Unset
        if isinstance(_opponent, Unset):
            opponent = UNSET
        else:
            opponent = CreateGameOpponent(_opponent)

        _seat0 = d.pop("seat0", UNSET)
        seat0: CreateGameSeat0 | Unset
        if isinstance(_seat0, Unset):
            seat0 = UNSET
        else:
            seat0 = CreateGameSeat0(_seat0)

        rated = d.pop("rated", UNSET)

        client_seed = d.pop("client_seed", UNSET)

        _webhook = d.pop("webhook", UNSET)
        webhook: Webhook | Unset
        if isinstance(_webhook, Unset):
            webhook = UNSET
        else:
            webhook = Webhook.from_dict(_webhook)

        create_game = cls(
            game=game,
            kind=kind,
            name=name,
            player=player,
            options=options,
            opponent=opponent,
            seat0=seat0,
            rated=rated,
            client_seed=client_seed,
            webhook=webhook,
        )

        return create_game
