defmodule Chat.Room do
  @moduledoc """
  A chat room: members join, post and leave.
  """
  use GenServer
  alias Chat.{Message, Presence}
  import Logger, only: [info: 1]
  require Chat.Metrics

  @behaviour Chat.Broadcaster

  defstruct name: nil, members: MapSet.new()

  @doc "Starts a room process."
  def start_link(name) do
    GenServer.start_link(__MODULE__, name, name: via(name))
  end

  def post(room, from, text) when is_binary(text) do
    GenServer.cast(room, {:post, Message.new(from, text)})
  end

  @impl true
  def init(name), do: {:ok, %__MODULE__{name: name}}

  @impl true
  def handle_cast({:post, msg}, state) do
    Enum.each(state.members, &Presence.notify(&1, msg))
    info("#{state.name}: #{msg.text}")
    Chat.Metrics.count(:posts)
    {:noreply, state}
  end

  defp via(name), do: {:via, Registry, {Chat.Registry, name}}

  defmacro is_room(term) do
    quote do: is_struct(unquote(term), Chat.Room)
  end

  defprotocol Describable do
    def describe(thing)
  end
end
