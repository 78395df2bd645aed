// A Croupier bot in Go (gRPC stubs generated from the .proto files with Debian's protoc-gen-go
// and protoc-gen-go-grpc): plays a random legal action in any of the four games. It picks one
// entry of the decision's legal actions at random; an entry with Amounts (lowest, highest,
// step) is a run of bets or raises, and the bot picks an amount among the run's 20 smallest and
// answers its id by arithmetic: id + amount - lowest (it never lists a run one by one). Seeded
// from CROUPIER_SEED. Change act() to make it play better.
package main

import (
	"context"
	"fmt"
	"io"
	"math/rand"
	"os"
	"strconv"

	pb "croupier/v1"

	"google.golang.org/grpc"
)

func act(rng *rand.Rand, d *pb.DecisionRequest) uint32 {
	entries := d.GetLegalActions() // ascending by id, never empty
	entry := entries[rng.Intn(len(entries))]
	run := entry.GetAmounts()
	if run == nil {
		return entry.GetId() // a single action (fold, call, a card...)
	}
	step := run.GetStep()
	if step < 1 {
		step = 1
	}
	count := (run.GetHighest()-run.GetLowest())/step + 1
	if count > 20 {
		count = 20
	}
	amount := run.GetLowest() + step*uint32(rng.Intn(int(count)))
	return entry.GetId() + amount - run.GetLowest()
}

func play() error {
	seed, _ := strconv.ParseInt(os.Getenv("CROUPIER_SEED"), 10, 64)
	rng := rand.New(rand.NewSource(seed))
	// CROUPIER_ADDRESS: host:port, or unix:/path in the sandbox; plaintext either way
	conn, err := grpc.Dial(os.Getenv("CROUPIER_ADDRESS"), grpc.WithInsecure(), grpc.WithBlock())
	if err != nil {
		return err
	}
	defer conn.Close()
	stream, err := pb.NewBotServiceClient(conn).Play(context.Background())
	if err != nil {
		return err
	}
	hello := &pb.Hello{Token: os.Getenv("CROUPIER_TOKEN"), BotName: "starter-go",
		BotVersion: "1.0", ProtocolVersion: 3}
	if err := stream.Send(&pb.PlayRequest{Kind: &pb.PlayRequest_Hello{Hello: hello}}); err != nil {
		return err
	}
	for {
		msg, err := stream.Recv()
		if err == io.EOF {
			return fmt.Errorf("the stream ended before MatchEnd")
		} else if err != nil {
			return err
		}
		if d := msg.GetDecision(); d != nil {
			reply := &pb.ActionReply{RequestId: d.GetRequestId(), ActionId: act(rng, d)}
			if err := stream.Send(&pb.PlayRequest{Kind: &pb.PlayRequest_Action{Action: reply}}); err != nil {
				return err
			}
		}
		if msg.GetMatchEnd() != nil {
			return stream.CloseSend()
		}
	}
}

func main() {
	if err := play(); err != nil {
		fmt.Fprintln(os.Stderr, "starter-go:", err)
		os.Exit(2)
	}
}
