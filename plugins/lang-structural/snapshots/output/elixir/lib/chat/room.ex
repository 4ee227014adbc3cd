defmodule Chat.Room do
# ^^^^^^^^^^^^^^^^^^^^^^ definition module Chat.Room [1:0-43:3]
  @moduledoc """
  A chat room: members join, post and leave.
  """
  use GenServer
#     ^^^^^^^^^ reference imports GenServer (from Chat.Room)
  alias Chat.{Message, Presence}
#             ^^^^^^^ reference imports Chat.Message (from Chat.Room)
#                      ^^^^^^^^ reference imports Chat.Presence (from Chat.Room)
  import Logger, only: [info: 1]
#        ^^^^^^ reference imports Logger (from Chat.Room)
  require Chat.Metrics
#         ^^^^^^^^^^^^ reference imports Chat.Metrics (from Chat.Room)

  @behaviour Chat.Broadcaster
#            ^^^^^^^^^^^^^^^^ reference implements Chat.Broadcaster (from Chat.Room)

  defstruct name: nil, members: MapSet.new()
#                                      ^^^ reference calls MapSet.new (from Chat.Room)

  @doc "Starts a room process."
  def start_link(name) do
# ^^^^^^^^^^^^^^^^^^^^^^^ definition function Chat.Room.start_link (to 17:5)
    GenServer.start_link(__MODULE__, name, name: via(name))
#             ^^^^^^^^^^ reference calls GenServer.start_link (from Chat.Room.start_link)
#                                                ^^^ reference calls via (from Chat.Room.start_link)
  end

  def post(room, from, text) when is_binary(text) do
# ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition function Chat.Room.post (to 21:5)
#                                 ^^^^^^^^^ reference calls is_binary (from Chat.Room.post)
    GenServer.cast(room, {:post, Message.new(from, text)})
#             ^^^^ reference calls GenServer.cast (from Chat.Room.post)
#                                        ^^^ reference calls Message.new (from Chat.Room.post)
  end

  @impl true
  def init(name), do: {:ok, %__MODULE__{name: name}}
# ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition function Chat.Room.init

  @impl true
  def handle_cast({:post, msg}, state) do
# ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition function Chat.Room.handle_cast (to 32:5)
    Enum.each(state.members, &Presence.notify(&1, msg))
#        ^^^^ reference calls Enum.each (from Chat.Room.handle_cast)
#                                      ^^^^^^ reference calls Presence.notify (from Chat.Room.handle_cast)
    info("#{state.name}: #{msg.text}")
#   ^^^^ reference calls info (from Chat.Room.handle_cast)
    Chat.Metrics.count(:posts)
#                ^^^^^ reference calls Chat.Metrics.count (from Chat.Room.handle_cast)
    {:noreply, state}
  end

  defp via(name), do: {:via, Registry, {Chat.Registry, name}}
# ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition function Chat.Room.via

  defmacro is_room(term) do
# ^^^^^^^^^^^^^^^^^^^^^^^^^ definition macro Chat.Room.is_room (to 38:5)
    quote do: is_struct(unquote(term), Chat.Room)
#             ^^^^^^^^^ reference calls is_struct (from Chat.Room.is_room)
  end

  defprotocol Describable do
# ^^^^^^^^^^^^^^^^^^^^^^^^^^ definition module Chat.Room.Describable (to 42:5)
    def describe(thing)
#   ^^^^^^^^^^^^^^^^^^^ definition function Chat.Room.Describable.describe
  end
end
# ----- travsr snapshot: elixir/lib/chat/room.ex (bash, phase A, status ok) -----
# node file <file> (room.ex)
# skeleton Chat.Room.Describable.describe: "def describe(thing)"
# skeleton Chat.Room.Describable: "defprotocol Describable do"
# skeleton Chat.Room.handle_cast: "def handle_cast({:post, msg}, state) do"
# skeleton Chat.Room.init: "def init(name), do: {:ok, %__MODULE__{name: name}}"
# skeleton Chat.Room.is_room: "defmacro is_room(term) do"
# skeleton Chat.Room.post: "def post(room, from, text) when is_binary(text) do"
# skeleton Chat.Room.start_link: "def start_link(name) do"
# skeleton Chat.Room.via: "defp via(name), do: {:via, Registry, {Chat.Registry, name}}"
# skeleton Chat.Room: "defmodule Chat.Room do"
# edge contains <file> -> Chat.Room (confidence 1, phase-a)
# edge contains Chat.Room -> Chat.Room.Describable (confidence 1, phase-a)
# edge contains Chat.Room -> Chat.Room.handle_cast (confidence 1, phase-a)
# edge contains Chat.Room -> Chat.Room.init (confidence 1, phase-a)
# edge contains Chat.Room -> Chat.Room.is_room (confidence 1, phase-a)
# edge contains Chat.Room -> Chat.Room.post (confidence 1, phase-a)
# edge contains Chat.Room -> Chat.Room.start_link (confidence 1, phase-a)
# edge contains Chat.Room -> Chat.Room.via (confidence 1, phase-a)
# edge contains Chat.Room.Describable -> Chat.Room.Describable.describe (confidence 1, phase-a)
