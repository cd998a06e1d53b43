from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.seek_game import SeekGame
from ..models.seek_kind import SeekKind
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.options import Options
    from ..models.player_ref import PlayerRef


T = TypeVar("T", bound="Seek")


@_attrs_define
class Seek:
    """
    Attributes:
        game (SeekGame):
        kind (SeekKind | Unset): human (the default) or bot: a client's bot, playing through the API as a person does;
            shown in views and the lobby
        name (str | Unset): a bot seat's name, without a player: 1-64 printable characters (Python's str.isprintable: no
            control, format, separator other than the space, private-use, surrogate or unassigned code point), no space at
            either end
        player (PlayerRef | Unset):
        options (Options | Unset): Table options, chosen when the game is created; options of the other game, unknown
            options and values out of range are a 400.
        rated (bool | Unset): pair only with rated seeks (your app's player: X-Api-Key)
        rating_range (list[int] | Unset): [low, high]: the opponent ratings you accept (0-4000; default any); each
            seek's rating must be in the other's range
        bot_fallback_s (float | None | Unset): unpaired after this many seconds: a game against the hosted level whose
            rating is nearest yours; null or absent: none
        expires_s (float | Unset): unpaired after this many seconds, the seek expires (default and most:
            SPITLOG_SEEK_MAX_S, whose default `maximum` shows)
    """

    game: SeekGame
    kind: SeekKind | Unset = UNSET
    name: str | Unset = UNSET
    player: PlayerRef | Unset = UNSET
    options: Options | Unset = UNSET
    rated: bool | Unset = UNSET
    rating_range: list[int] | Unset = UNSET
    bot_fallback_s: float | None | Unset = UNSET
    expires_s: float | Unset = UNSET

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

        rated = self.rated

        rating_range: list[int] | Unset = UNSET
        if not isinstance(self.rating_range, Unset):
            rating_range = self.rating_range

        bot_fallback_s: float | None | Unset
        if isinstance(self.bot_fallback_s, Unset):
            bot_fallback_s = UNSET
        else:
            bot_fallback_s = self.bot_fallback_s

        expires_s = self.expires_s

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
        if rated is not UNSET:
            field_dict["rated"] = rated
        if rating_range is not UNSET:
            field_dict["rating_range"] = rating_range
        if bot_fallback_s is not UNSET:
            field_dict["bot_fallback_s"] = bot_fallback_s
        if expires_s is not UNSET:
            field_dict["expires_s"] = expires_s

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.options import Options  # noqa: PLC0415
        from ..models.player_ref import PlayerRef  # noqa: PLC0415

        d = dict(src_dict)
        game = SeekGame(d.pop("game"))

        _kind = d.pop("kind", UNSET)
        kind: SeekKind | Unset
        if isinstance(_kind, Unset):
            kind = UNSET
        else:
            kind = SeekKind(_kind)

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

        rated = d.pop("rated", UNSET)

        rating_range = cast(list[int], d.pop("rating_range", UNSET))

        def _parse_bot_fallback_s(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        bot_fallback_s = _parse_bot_fallback_s(d.pop("bot_fallback_s", UNSET))

        expires_s = d.pop("expires_s", UNSET)

        seek = cls(
            game=game,
            kind=kind,
            name=name,
            player=player,
            options=options,
            rated=rated,
            rating_range=rating_range,
            bot_fallback_s=bot_fallback_s,
            expires_s=expires_s,
        )

        return seek
